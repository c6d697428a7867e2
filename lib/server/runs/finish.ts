/** "Stop and write the report now" (POST /api/runs/:id/finish and the run page's button). */
import { requestRunFinish } from "../../../db/queries/runs.ts";
import { terminalRunStatuses } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { ownedRun } from "./owned.ts";

/**
 * A run that is researching stops gathering and writes its report from what it has (the run ends
 * completed, the report marked partial). Refused (409) when there is nothing to stop: a run not yet
 * researching, already writing, already asked, or ended.
 */
export async function finishRunNow(rt: Runtime, id: string, ownerId: string): Promise<{ status: string }> {
  const db = rt.handle.db;
  const run = await ownedRun(db, id, ownerId);
  if (terminalRunStatuses.includes(run.status)) {
    throw new AppError("conflict", `The run has already ended (${run.status}).`);
  }
  if (run.finishRequestedAt || run.phase === "synthesis" || run.phase === "knowledge") {
    throw new AppError("conflict", "The run is already writing its report.");
  }
  const flagged = await requestRunFinish(db, id);
  if (!flagged) {
    throw new AppError(
      "conflict",
      "The run is not researching yet, so there is nothing to write a report from. Cancel it instead.",
    );
  }
  await rt.bus.publish({ kind: "finish", runId: id });
  return { status: "finishing" };
}
