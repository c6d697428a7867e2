/**
 * The durable queue: each run is one pg-boss job. Embedded, pg-boss runs on the same PGlite
 * instance as the app; with DATABASE_URL it uses PostgreSQL, and any number of `npm run worker`
 * processes can take jobs. A heartbeat lets pg-boss notice a dead worker and hand its job to
 * another one, which resumes the run from its checkpoints.
 */
import { fromPglite, PgBoss } from "pg-boss";
import { type DatabaseHandle, type Db, queueTransaction } from "../../db/client.ts";
import { setRunJobId } from "../../db/queries/runs.ts";
import { log } from "../telemetry/log.ts";

export const RUN_QUEUE = "research-run";

export interface RunJobData {
  runId: string;
}

export interface QueueSettings {
  /** Seconds without a heartbeat after which a job counts as abandoned (pg-boss minimum 10). */
  heartbeatSeconds: number;
  /** How often pg-boss's monitor looks for abandoned jobs. */
  monitorSeconds: number;
  /** Attempts after the first: each is a resume of the same run, not a restart. */
  retryLimit: number;
  /** Upper bound of one attempt; runs have their own wall-clock limit inside. */
  expireInSeconds: number;
  /**
   * Run pg-boss's clock, which turns stored schedules (scheduled refresh) into jobs. The web server
   * runs it (bootstrap.ts); tools and tests that only enqueue do not need it.
   */
  clock?: boolean;
}

export function queueSettingsFromEnv(env: Record<string, string | undefined> = process.env): QueueSettings {
  const num = (name: string, fallback: number, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min} (got "${raw}")`);
    return n;
  };
  return {
    heartbeatSeconds: num("JOB_HEARTBEAT_SECONDS", 10, 10),
    monitorSeconds: num("JOB_MONITOR_SECONDS", 10, 1),
    retryLimit: num("JOB_RETRY_LIMIT", 5, 0),
    expireInSeconds: num("JOB_EXPIRE_SECONDS", 4 * 3600, 60),
  };
}

const globalKey = Symbol.for("deep-research.boss");
type G = typeof globalThis & { [globalKey]?: Promise<PgBoss> };

/** The process's pg-boss instance, started once (installs its schema on first use). */
export function getBoss(handle: DatabaseHandle, settings = queueSettingsFromEnv()): Promise<PgBoss> {
  const g = globalThis as G;
  if (!g[globalKey]) {
    const starting = startBoss(handle, settings);
    starting.catch(() => {
      if (g[globalKey] === starting) g[globalKey] = undefined;
    });
    g[globalKey] = starting;
  }
  return g[globalKey];
}

/** Stops the process's pg-boss instance, if started; the next getBoss() starts a new one. */
export async function stopBoss(): Promise<void> {
  const g = globalThis as G;
  const starting = g[globalKey];
  g[globalKey] = undefined;
  const boss = await starting?.catch(() => undefined);
  await boss?.stop({ graceful: false });
}

async function startBoss(handle: DatabaseHandle, settings: QueueSettings): Promise<PgBoss> {
  const common = {
    schema: "pgboss",
    monitorIntervalSeconds: settings.monitorSeconds,
    superviseIntervalSeconds: settings.monitorSeconds,
    schedule: settings.clock ?? false,
    // A new run's job wakes the workers at once (a NOTIFY sent when its transaction commits)
    // instead of waiting for their next poll: the run starts within milliseconds of its POST.
    useListenNotify: true,
  };
  const boss =
    handle.kind === "pglite"
      ? new PgBoss({ ...common, db: fromPglite(handle.client), backend: "pglite" })
      : new PgBoss({ ...common, connectionString: handle.url, max: 4 });
  boss.on("error", (e) => log("queue").error({ err: e }, "queue error"));
  await boss.start();
  await ensureQueue(boss, settings);
  return boss;
}

async function ensureQueue(boss: PgBoss, settings: QueueSettings): Promise<void> {
  const options = {
    heartbeatSeconds: settings.heartbeatSeconds,
    retryLimit: settings.retryLimit,
    retryDelay: 1,
    expireInSeconds: settings.expireInSeconds,
    notify: true,
  };
  const existing = await boss.getQueue(RUN_QUEUE);
  if (!existing) await boss.createQueue(RUN_QUEUE, options);
  else await boss.updateQueue(RUN_QUEUE, options);
  // Fill pg-boss's queue cache now, outside any transaction: otherwise the first send inside a
  // PGlite transaction looks the queue up over the same single connection and waits on itself.
  await boss.getJobById(RUN_QUEUE, "00000000-0000-4000-8000-000000000000");
}

/**
 * Enqueues the run's job inside the caller's transaction (`tx`), so a run row never exists without
 * its job and a job never refers to a run that was rolled back.
 */
export async function enqueueRun(boss: PgBoss, tx: Db, runId: string): Promise<string> {
  const id = await boss.send(RUN_QUEUE, { runId } satisfies RunJobData, {
    db: queueTransaction(tx),
    singletonKey: runId,
  });
  if (!id) throw new Error(`the queue refused the job for run ${runId} (a job for it is already queued)`);
  await setRunJobId(tx, runId, id);
  return id;
}

export async function cancelQueuedJob(boss: PgBoss, jobId: string): Promise<void> {
  await boss.cancel(RUN_QUEUE, jobId);
}
