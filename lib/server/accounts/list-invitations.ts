/** Every invitation, newest first, for the admin page and GET /api/invitations. */
import { listInvitations } from "../../../db/queries/accounts.ts";
import type { Runtime } from "../runtime.ts";
import { type InvitationView, invitationView } from "./invitation-view.ts";

export type { InvitationView } from "./invitation-view.ts";

export async function listAllInvitations(rt: Runtime): Promise<InvitationView[]> {
  return (await listInvitations(rt.handle.db)).map(invitationView);
}
