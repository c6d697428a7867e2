/** The share links of the owner's run (GET /api/runs/:id/shares and the run page's list). */
import { listSharesForRun } from "../../../db/queries/shares.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { ownedRun } from "../runs/owned.ts";
import { type ShareView, shareView } from "./owner-view.ts";

export type { ShareView } from "./owner-view.ts";

export async function listRunShares(rt: Runtime, runId: string, ownerId: string): Promise<ShareView[]> {
  await ownedRun(rt.handle.db, runId, ownerId);
  return (await listSharesForRun(rt.handle.db, runId)).map(shareView);
}
