/**
 * What the owner's account page shows about passwords an admin set for them: who set one and when,
 * whether it is still the password (temporary until the owner sets their own), and every sign-in
 * while it was in use — time, address and browser. Nothing can remove or hide these entries.
 */
import { listPasswordResets } from "../../../db/queries/admin-audit.ts";
import type { PasswordResetEnd } from "../../../db/schema.ts";
import type { Runtime } from "../runtime.ts";

export interface PasswordResetView {
  id: string;
  resetByName: string;
  resetByEmail: string;
  createdAt: string;
  /** Null while the admin's password is still the account's password. */
  endedAt: string | null;
  endReason: PasswordResetEnd | null;
  signIns: { at: string; ipAddress: string | null; userAgent: string | null }[];
}

export async function passwordResetsOf(
  rt: Pick<Runtime, "handle">,
  userId: string,
): Promise<PasswordResetView[]> {
  return (await listPasswordResets(rt.handle.db, userId)).map((r) => ({
    id: r.id,
    resetByName: r.resetByName,
    resetByEmail: r.resetByEmail,
    createdAt: r.createdAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
    endReason: r.endReason,
    signIns: r.signIns.map((s) => ({
      at: s.createdAt.toISOString(),
      ipAddress: s.ipAddress,
      userAgent: s.userAgent,
    })),
  }));
}
