/** An invitation as the admin page and GET /api/invitations show it: never its token. */
import type { Invitation } from "../../../db/schema.ts";

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

export const invitationView = (i: Invitation): InvitationView => ({
  id: i.id,
  email: i.email,
  createdAt: i.createdAt,
  expiresAt: i.expiresAt,
  state: stateOf(i),
});
