/** Admins invite people: a single-use sign-up link that expires and may be bound to one email address. */
import { z } from "zod";
import { insertInvitation, listInvitations, revokeInvitation } from "../../db/queries/accounts.ts";
import type { Invitation } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { hashInvitationToken, newInvitationToken } from "./auth/invitation-token.ts";
import type { Runtime } from "./runtime.ts";

export const createInvitationSchema = z.strictObject({
  email: z.email().max(254).optional(),
  expiresInDays: z.number().int().min(1).max(90).default(7),
});
export type CreateInvitationInput = z.infer<typeof createInvitationSchema>;

export type InvitationState = "open" | "used" | "revoked" | "expired";

export interface InvitationView {
  id: string;
  email: string | null;
  createdAt: Date;
  expiresAt: Date;
  state: InvitationState;
}

function stateOf(i: Invitation, now = new Date()): InvitationState {
  if (i.usedBy || i.usedAt) return "used";
  if (i.revokedAt) return "revoked";
  return i.expiresAt <= now ? "expired" : "open";
}

const viewOf = (i: Invitation): InvitationView => ({
  id: i.id,
  email: i.email,
  createdAt: i.createdAt,
  expiresAt: i.expiresAt,
  state: stateOf(i),
});

/** Creates an invitation; the link (with its token) exists only in this answer. */
export async function inviteSomeone(
  rt: Runtime,
  adminId: string,
  input: CreateInvitationInput,
  origin: string,
): Promise<InvitationView & { url: string }> {
  const token = newInvitationToken();
  const row = await insertInvitation(rt.handle.db, {
    tokenHash: hashInvitationToken(token),
    email: input.email?.toLowerCase() ?? null,
    createdBy: adminId,
    expiresAt: new Date(Date.now() + input.expiresInDays * 86_400_000),
  });
  return { ...viewOf(row), url: `${origin}/sign-up?invite=${encodeURIComponent(token)}` };
}

export async function listAllInvitations(rt: Runtime): Promise<InvitationView[]> {
  return (await listInvitations(rt.handle.db)).map(viewOf);
}

export async function revokeOpenInvitation(rt: Runtime, id: string): Promise<void> {
  if (!(await revokeInvitation(rt.handle.db, id))) {
    throw new AppError("not_found", "No such open invitation.");
  }
}
