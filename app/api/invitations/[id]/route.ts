import { z } from "zod";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { revokeOpenInvitation } from "@/lib/server/accounts/revoke-invitation";
import { requireAdmin } from "@/lib/server/auth/caller";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/invitations/[id]">) => {
  await requireAdmin(req, "session");
  const { id } = await ctx.params;
  if (!z.uuid().safeParse(id).success) throw new AppError("not_found", "No such open invitation.");
  await revokeOpenInvitation(await serverRuntime(), id);
  return new Response(null, { status: 204 });
});
