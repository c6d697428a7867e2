import { handle, readJson } from "@/lib/http";
import { createInvitationSchema, inviteSomeone } from "@/lib/server/accounts/invite";
import { listAllInvitations } from "@/lib/server/accounts/list-invitations";
import { requireAdmin } from "@/lib/server/auth/caller";
import { publicOrigin } from "@/lib/server/auth/settings";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  await requireAdmin(req, "session");
  return Response.json({ invitations: await listAllInvitations(await serverRuntime()) });
});

/** {email?, expiresInDays?} → 201 with the sign-up link, shown only this once. */
export const POST = handle(async (req: Request) => {
  const admin = await requireAdmin(req, "session");
  const input = await readJson(req, createInvitationSchema);
  const invitation = await inviteSomeone(await serverRuntime(), admin.userId, input, publicOrigin(req));
  return Response.json({ invitation }, { status: 201 });
});
