/**
 * The one ownership check every run action and read goes through.
 *
 * @internal to lib/server/runs/: a helper of its actions, not an action; adapters do not import it.
 */
import type { Db } from "../../../db/client.ts";
import { getRunForOwner } from "../../../db/queries/runs.ts";
import type { Run } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";

/** The owner's run, or a 404 (another owner's run is indistinguishable from a missing one). */
export async function ownedRun(db: Db, id: string, ownerId: string): Promise<Run> {
  const run = await getRunForOwner(db, id, ownerId);
  if (!run) throw new AppError("not_found", "No such run.");
  return run;
}
