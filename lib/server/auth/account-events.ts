/**
 * What follows better-auth's account actions once they succeeded (its `after` hooks):
 * - a changed or reset password, and signing out everywhere, revoke every API token of the account
 *   (a token must not outlive the credential it was made under); a reset also ends its sessions;
 * - a password an admin set is temporary: it is recorded (with the admin, in the audit log too),
 *   every sign-in while it is in use is recorded for the owner to see, and it ends when the owner
 *   sets their own.
 */
import type { Db } from "../../../db/client.ts";
import { deleteUserSessions, findUser } from "../../../db/queries/accounts.ts";
import {
  endPasswordResets,
  insertAuditEntry,
  openPasswordReset,
  recordResetSignIn,
} from "../../../db/queries/admin-audit.ts";
import { revokeAllApiTokens } from "../../../db/queries/tokens.ts";

interface SignedIn {
  id: string;
  name: string;
  email: string;
}

/** What an after hook knows: the path, the body it was sent, who was signed in, from where. */
export interface AccountAction {
  path: string;
  body: unknown;
  actor: SignedIn | null;
  ipAddress: string | null;
}

const targetOf = (body: unknown): string | null => {
  const userId = (body as { userId?: unknown } | null)?.userId;
  return typeof userId === "string" ? userId : null;
};

/** Paths after which every token of an account is revoked, and whose account that is. */
const revokesTokens: Record<string, (a: AccountAction) => string | null> = {
  "/change-password": (a) => a.actor?.id ?? null,
  "/revoke-sessions": (a) => a.actor?.id ?? null,
  "/revoke-other-sessions": (a) => a.actor?.id ?? null,
  "/admin/set-user-password": (a) => targetOf(a.body),
  "/admin/revoke-user-sessions": (a) => targetOf(a.body),
};

export async function afterAccountAction(db: Db, action: AccountAction, now = new Date()): Promise<void> {
  const account = revokesTokens[action.path]?.(action);
  if (!account) return;
  await revokeAllApiTokens(db, account, now);
  if (action.path === "/change-password") await endPasswordResets(db, account, now);
  if (action.path === "/admin/set-user-password" && action.actor) {
    await recordAdminReset(db, account, action.actor, action.ipAddress, now);
  }
}

async function recordAdminReset(db: Db, userId: string, admin: SignedIn, ip: string | null, now: Date) {
  // Whoever was signed in with the old password is signed out: the next sign-in uses the new one.
  await deleteUserSessions(db, userId);
  await openPasswordReset(db, userId, admin, now);
  const subject = await findUser(db, userId);
  await insertAuditEntry(db, {
    action: "password_reset",
    actorId: admin.id,
    actorEmail: admin.email,
    subjectEmail: subject?.email ?? null,
    ipAddress: ip,
  });
}

/** A new session made by signing in: recorded while the account's password is one an admin set. */
export async function afterSessionCreated(
  db: Db,
  session: { userId: string; ipAddress?: string | null; userAgent?: string | null },
  path: string | undefined,
): Promise<void> {
  if (!path?.startsWith("/sign-in")) return;
  await recordResetSignIn(db, session.userId, {
    ipAddress: session.ipAddress ?? null,
    userAgent: session.userAgent ?? null,
  });
}
