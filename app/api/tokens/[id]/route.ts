import { handle } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import { serverRuntime } from "@/lib/server/runtime";
import { revokeToken, tokenIdOrNotFound } from "@/lib/server/tokens";

export const dynamic = "force-dynamic";

/** Revokes the token at once; a token may revoke itself (a leaked one can be killed with itself). */
export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/tokens/[id]">) => {
  const id = tokenIdOrNotFound((await ctx.params).id);
  const caller = await requireCaller(req);
  await revokeToken(await serverRuntime(), id, caller.userId);
  return new Response(null, { status: 204 });
});
