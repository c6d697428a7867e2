/**
 * A new share link to the owner's run (POST /api/runs/:id/shares and the run page's share form).
 * Only the token's hash is stored: the token is in this answer only.
 */
import { createShare } from "../../../db/queries/shares.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { ownedRun } from "../runs/owned.ts";
import { type ShareView, shareView } from "./owner-view.ts";
import type { ShareRequest } from "./requests.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export async function shareRun(
  rt: Runtime,
  runId: string,
  ownerId: string,
  request: ShareRequest,
  now = new Date(),
): Promise<{ share: ShareView; token: string }> {
  await ownedRun(rt.handle.db, runId, ownerId);
  const expiresAt = request.expiresInDays ? new Date(now.getTime() + request.expiresInDays * DAY_MS) : null;
  const { share, token } = await createShare(rt.handle.db, {
    runId,
    label: request.label ?? null,
    expiresAt,
    allowDownload: request.allowDownload ?? false,
    includeThread: request.includeThread ?? false,
  });
  return { share: shareView(share), token };
}
