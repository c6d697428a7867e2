/**
 * Deleting a run. Only an ended run is deleted, in one conditional statement, so a run that a
 * worker could still be writing to is never removed under it. Everything the run owns goes with
 * it through the foreign keys (db/schema.ts: events, directives and their source links, sources,
 * page links, researcher results, supervision rounds, report, citations and shares cascade);
 * knowledge items learned from it stay the owner's, with their run id set to null.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../client.ts";
import { runs, terminalRunStatuses } from "../schema.ts";

/** Deletes the owner's run if it has ended; the deleted id, or nothing when no such ended run exists. */
export async function deleteEndedRunForOwner(
  db: Db,
  id: string,
  ownerId: string,
): Promise<string | undefined> {
  const [row] = await db
    .delete(runs)
    .where(and(eq(runs.id, id), eq(runs.ownerId, ownerId), inArray(runs.status, [...terminalRunStatuses])))
    .returning({ id: runs.id });
  return row?.id;
}
