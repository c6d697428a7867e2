/**
 * Nothing stays "running" forever. A run whose job is gone or settled (its worker died more often
 * than JOB_RETRY_LIMIT allows, or the job was deleted) is ended as failed with a readable reason;
 * what it gathered stays viewable. Every worker sweeps now and then; the update is conditional, so
 * two workers sweeping at once end a run once.
 */
import type { PgBoss } from "pg-boss";
import type { Db } from "../../db/client.ts";
import { failAbandonedRun, listRunsToSweep } from "../../db/queries/runs.ts";
import { because, type Why } from "../research/index.ts";
import { log } from "../telemetry/log.ts";
import type { RunBus } from "./bus.ts";
import { withEventTransaction } from "./event-sink.ts";
import { RUN_QUEUE } from "./queue.ts";
import { oweRunWebhook } from "./webhooks/owed.ts";

/** Runs untouched for less than this are left alone: their job may be being created right now. */
const MIN_IDLE_MS = 60_000;

export async function sweepAbandonedRuns(
  db: Db,
  boss: PgBoss,
  bus: RunBus,
  opts: { minIdleMs?: number } = {},
): Promise<string[]> {
  const idleBefore = new Date(Date.now() - (opts.minIdleMs ?? MIN_IDLE_MS));
  const ended: string[] = [];
  for (const c of await listRunsToSweep(db, idleBefore)) {
    const job = await boss.getJobById(RUN_QUEUE, c.jobId);
    if (job && (job.state === "created" || job.state === "retry" || job.state === "active")) continue;
    if (await failAbandoned(db, boss, bus, c.id, abandonedBecause(job))) ended.push(c.id);
  }
  return ended;
}

/** Why a run was given up: its job ended without ending it, or is gone from the queue. */
function abandonedBecause(job: { state: string; retryCount: number } | null): Why {
  if (!job) {
    return {
      reason: "The run's job no longer exists in the queue; the run was given up.",
      because: because("job_missing"),
    };
  }
  const attempts = job.retryCount + 1;
  return {
    reason: `The run's job ended as "${job.state}" after ${attempts} attempt(s) without finishing the run; it was given up.`,
    because: because("job_given_up", { state: job.state, attempts }),
  };
}

/**
 * The status and its terminal event in one transaction: a run never ends without saying why. A
 * run that cannot be ended now (its write failed and rolled back) stays as it was for the next
 * sweep and does not keep the others from being ended.
 */
async function failAbandoned(db: Db, boss: PgBoss, bus: RunBus, runId: string, why: Why): Promise<boolean> {
  try {
    return await withEventTransaction(db, bus, async (tx, events) => {
      if (!(await failAbandonedRun(tx, runId, why.reason, why.because))) return false;
      await events.append(runId, { type: "run.failed", ...why, partial: false });
      await oweRunWebhook(tx, boss, runId, "run.failed");
      return true;
    });
  } catch (e) {
    log("sweeper").error({ err: e, runId }, "sweep could not end the run; the next sweep retries");
    return false;
  }
}
