/**
 * GET /api/runs/:id/versions: the versions of the report a run belongs to, oldest first. A report's
 * versions share `versionOf`, the first run's id (null on the first run itself).
 */
import { listVersions } from "../../../db/queries/run-versions.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { ownedRun } from "./owned.ts";

export interface RunVersion {
  id: string;
  createdAt: Date;
  status: string;
}

/** The owner's versions of the run's report (the run alone when it has no other); 404 for another's run. */
export async function listRunVersions(rt: Runtime, id: string, ownerId: string): Promise<RunVersion[]> {
  const run = await ownedRun(rt.handle.db, id, ownerId);
  return listVersions(rt.handle.db, run.versionOf ?? run.id, ownerId);
}
