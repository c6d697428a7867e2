/** Revoking a share link (DELETE /api/shares/:id and the run page's button): a 404 for anyone else's. */
import { getShareForOwner, revokeShare } from "../../../db/queries/shares.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";

export async function revokeOwnShare(rt: Runtime, shareId: string, ownerId: string): Promise<void> {
  const found = await getShareForOwner(rt.handle.db, shareId, ownerId);
  if (!found) throw new AppError("not_found", "No such share.");
  await revokeShare(rt.handle.db, shareId);
}
