/**
 * The run worker: takes run jobs from the queue and executes them. Runs inside the Next.js server
 * when embedded (instrumentation.ts) and as `npm run worker` processes against PostgreSQL. Stopping
 * interrupts running runs without ending them: their jobs fail and are retried, and the next
 * attempt resumes from the checkpoints.
 */
import type { DatabaseHandle } from "../../db/client.ts";
import { warmParsePool } from "../fetch/isolated-extract.ts";
import { log } from "../telemetry/log.ts";
import { metrics } from "../telemetry/metrics.ts";
import type { RunBus } from "./bus.ts";
import { executeRun } from "./execute-run.ts";
import { startQuestionWorker } from "./questions/worker.ts";
import { getBoss, RUN_QUEUE, type RunJobData } from "./queue.ts";
import { promoteAfterRun, promoteAllWaitingRuns } from "./run-slots.ts";
import { sweepAbandonedRuns } from "./sweeper.ts";
import { startWebhookWorker } from "./webhooks/worker.ts";

export interface RunWorker {
  stop(): Promise<void>;
}

export function workerConcurrencyFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.WORKER_CONCURRENCY;
  if (!raw) return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 50)
    throw new Error(`WORKER_CONCURRENCY must be 1..50 (got "${raw}")`);
  return n;
}

export async function startRunWorker(
  handle: DatabaseHandle,
  bus: RunBus,
  opts: { concurrency?: number; pollSeconds?: number } = {},
): Promise<RunWorker> {
  const boss = await getBoss(handle);
  const shutdown = new AbortController();
  // The webhook queue first: a run that ends owes its delivery through it.
  const webhooks = await startWebhookWorker(handle.db, boss, { pollSeconds: opts.pollSeconds });
  const questions = await startQuestionWorker(handle, bus, boss, {
    signal: shutdown.signal,
    pollSeconds: opts.pollSeconds,
  });
  warmParsePool();
  await boss.work<RunJobData>(
    RUN_QUEUE,
    {
      localConcurrency: opts.concurrency ?? workerConcurrencyFromEnv(),
      pollingIntervalSeconds: opts.pollSeconds ?? 1,
      // With NOTIFY waking the worker for each new job, polling is only the backstop.
      notifyPollingIntervalSeconds: Math.max(opts.pollSeconds ?? 1, 5),
      // Refresh well inside heartbeatSeconds so a live worker is never mistaken for a dead one.
      heartbeatRefreshSeconds: 2,
    },
    async (jobs) => {
      for (const job of jobs) {
        if (job.retryCount > 0) metrics().jobRetries.inc();
        const outcome = await executeRun({
          handle,
          bus,
          runId: job.data.runId,
          boss,
          workerSignal: AbortSignal.any([shutdown.signal, job.signal]),
        });
        if (outcome.status === "interrupted") {
          // Failing the job makes pg-boss retry it; the retry resumes where this attempt stopped.
          throw new Error(
            `run ${job.data.runId} interrupted by worker shutdown; it resumes on the next attempt`,
          );
        }
        // The run ended or waits for a person: its slot is free for the owner's next waiting run.
        // A failure here only delays that run until the next sweep.
        await promoteAfterRun(handle.db, boss, job.data.runId).catch((e) =>
          log("worker").error({ err: e, runId: job.data.runId }, "promoting waiting runs failed"),
        );
      }
    },
  );
  // Runs whose jobs were given up on (retry limit) must not stay "running": sweep now and then.
  const sweepMs = Number(process.env.JOB_SWEEP_SECONDS ?? 60) * 1000;
  // Then waiting runs go into slots freed by runs that ended without their worker promoting them.
  const sweep = () =>
    sweepAbandonedRuns(handle.db, boss, bus)
      .then(() => promoteAllWaitingRuns(handle.db, boss))
      .catch((e) => log("worker").error({ err: e }, "sweep failed"));
  void sweep();
  const sweeper = setInterval(sweep, Math.max(1000, sweepMs));
  sweeper.unref();
  return {
    async stop() {
      clearInterval(sweeper);
      shutdown.abort();
      await boss.offWork(RUN_QUEUE, { wait: true }).catch(() => {});
      await questions.stop();
      await webhooks.stop();
    },
  };
}
