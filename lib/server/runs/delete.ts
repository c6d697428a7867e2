/**
 * Deleting a run (DELETE /api/runs/:id and the home page's delete button): the owner's ended run
 * and everything it owns. A run still queued, running or waiting for its owner is refused (409):
 * its worker or queue job could still write to it, so it must be cancelled first.
 */
import { deleteEndedRunForOwner } from "../../../db/queries/run-delete.ts";
import { terminalRunStatuses } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { ownedRun } from "./owned.ts";

export async function deleteRun(rt: Runtime, id: string, ownerId: string): Promise<void> {
  const db = rt.handle.db;
  // One conditional delete: a run that ended is gone in a single statement, with no window in
  // which it could be restarted between a check and the delete.
  if (await deleteEndedRunForOwner(db, id, ownerId)) return;
  const run = await ownedRun(db, id, ownerId);
  if (terminalRunStatuses.includes(run.status)) {
    // Ended between the two statements (or deleted by a concurrent request): try once more.
    if (await deleteEndedRunForOwner(db, id, ownerId)) return;
    throw new AppError("not_found", "No such run.");
  }
  throw new AppError("conflict", "This run has not ended yet. Cancel it first, then delete it.", {
    details: { status: run.status },
  });
}
