import { handle } from "@/lib/http";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";
import { shareIdOrNotFound } from "@/lib/server/shares/requests";
import { revokeOwnShare } from "@/lib/server/shares/revoke";

export const dynamic = "force-dynamic";

export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/shares/[shareId]">) => {
  const shareId = shareIdOrNotFound((await ctx.params).shareId);
  await revokeOwnShare(await serverRuntime(), shareId, await currentOwner(req, "research"));
  return new Response(null, { status: 204 });
});
