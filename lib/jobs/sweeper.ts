/**
 * Nothing stays "running" forever. A run whose job is gone or settled (its worker died more often
 * than JOB_RETRY_LIMIT allows, or the job was deleted) is ended as failed with a readable reason;
 * what it gathered stays viewable. Every worker sweeps now and then; the update is conditional, so
 * two workers sweeping at once end a run once.
 */
import { and, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import type { Db } from "../../db/client.ts";
import { appendEvent } from "../../db/queries/events.ts";
import { runs } from "../../db/schema.ts";
import type { RunBus } from "./bus.ts";
import { RUN_QUEUE } from "./queue.ts";

/** Runs untouched for less than this are left alone: their job may be being created right now. */
const MIN_IDLE_MS = 60_000;

export async function sweepAbandonedRuns(
  db: Db,
  boss: PgBoss,
  bus: RunBus,
  opts: { minIdleMs?: number } = {},
): Promise<string[]> {
  const idleBefore = new Date(Date.now() - (opts.minIdleMs ?? MIN_IDLE_MS));
  const candidates = await db
    .select({ id: runs.id, jobId: runs.jobId })
    .from(runs)
    .where(
      and(inArray(runs.status, ["queued", "running"]), isNotNull(runs.jobId), lt(runs.updatedAt, idleBefore)),
    );
  const ended: string[] = [];
  for (const c of candidates) {
    const job = await boss.getJobById(RUN_QUEUE, c.jobId as string);
    if (job && (job.state === "created" || job.state === "retry" || job.state === "active")) continue;
    const reason = job
      ? `The run's job ended as "${job.state}" after ${job.retryCount + 1} attempt(s) without finishing the run; it was given up.`
      : "The run's job no longer exists in the queue; the run was given up.";
    const [row] = await db
      .update(runs)
      .set({ status: "failed", error: reason, finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(runs.id, c.id), inArray(runs.status, ["queued", "running"])))
      .returning();
    if (!row) continue;
    const event = await appendEvent(db, c.id, "run.failed", { reason, partial: false });
    await bus.publish({ kind: "event", runId: c.id, seq: event.seq, type: "run.failed" });
    ended.push(c.id);
  }
  return ended;
}
