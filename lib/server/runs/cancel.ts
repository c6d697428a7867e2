/** Cancelling a run (POST /api/runs/:id/cancel, the run page's button, the MCP cancel_research tool). */
import { cancelIdleRun, requestRunCancel } from "../../../db/queries/runs.ts";
import { terminalRunStatuses } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { withEventTransaction } from "../../jobs/event-sink.ts";
import { cancelQueuedJob, getBoss } from "../../jobs/queue.ts";
import { promoteWaitingRuns } from "../../jobs/run-slots.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { because } from "../../research/index.ts";
import { ownedRun } from "./owned.ts";

export async function cancelRun(rt: Runtime, id: string, ownerId: string): Promise<{ status: string }> {
  const db = rt.handle.db;
  const run = await ownedRun(db, id, ownerId);
  if (terminalRunStatuses.includes(run.status)) {
    throw new AppError("conflict", `The run has already ended (${run.status}).`);
  }
  // Not being worked on: end it here, atomically, so a worker picking the job up sees it ended.
  const idle = await withEventTransaction(db, rt.bus, async (tx, events) => {
    const row = await cancelIdleRun(tx, id);
    if (row)
      await events.append(id, {
        type: "run.cancelled",
        reason: "cancelled by the user before it ran",
        because: because("cancelled_before_start"),
      });
    return row;
  });
  if (idle) {
    const boss = await getBoss(rt.handle);
    if (idle.jobId) await cancelQueuedJob(boss, idle.jobId).catch(() => {});
    // A queued run with a job held a slot: the owner's next waiting run may start.
    await promoteWaitingRuns(db, boss, ownerId);
    return { status: "cancelled" };
  }
  // Running: the worker watches for this flag and the bus message, aborts in-flight calls, and ends the run.
  await requestRunCancel(db, id);
  await rt.bus.publish({ kind: "cancel", runId: id });
  return { status: "cancelling" };
}
