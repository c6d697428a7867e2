/** Revoking tokens (DELETE /api/tokens/:id, the account page's button; all of them on a password change). */
import { z } from "zod";
import { getApiToken, revokeAllApiTokens, revokeApiToken } from "../../../db/queries/tokens.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";

/** Revokes one of the owner's tokens; someone else's id is not found (ids do not leak existence). */
export async function revokeToken(rt: Runtime, id: string, userId: string, now = new Date()): Promise<void> {
  if (await revokeApiToken(rt.handle.db, id, userId, now)) return;
  if (await getApiToken(rt.handle.db, id, userId)) return; // already revoked: nothing left to do
  throw new AppError("not_found", "No such token.");
}

/** Every token of the person stops working: their password changed or was reset, or they signed out everywhere. */
export async function revokeAllTokens(rt: Pick<Runtime, "handle">, userId: string, now = new Date()) {
  return revokeAllApiTokens(rt.handle.db, userId, now);
}

export function tokenIdOrNotFound(raw: string): string {
  if (!z.uuid().safeParse(raw).success) throw new AppError("not_found", "No such token.");
  return raw;
}
