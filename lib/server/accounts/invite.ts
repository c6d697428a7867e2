/** Admins invite people: a single-use sign-up link that expires and may be bound to one email address. */
import { z } from "zod";
import { insertInvitation } from "../../../db/queries/accounts.ts";
import { hashInvitationToken, newInvitationToken } from "../auth/invitation-token.ts";
import type { Runtime } from "../runtime.ts";
import { type InvitationView, invitationView } from "./invitation-view.ts";

export const createInvitationSchema = z.strictObject({
  email: z.email().max(254).optional(),
  expiresInDays: z.number().int().min(1).max(90).default(7),
});
export type CreateInvitationInput = z.infer<typeof createInvitationSchema>;

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
  return { ...invitationView(row), url: `${origin}/sign-up?invite=${encodeURIComponent(token)}` };
}
