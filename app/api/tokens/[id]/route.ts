import { handle } from "@/lib/http";
import { assertScope, requireCaller } from "@/lib/server/auth/caller";
import { serverRuntime } from "@/lib/server/runtime";
import { revokeToken, tokenIdOrNotFound } from "@/lib/server/tokens/revoke";

export const dynamic = "force-dynamic";

/**
 * Revokes the token at once (scope `research`). Any token may revoke itself, whatever its scope:
 * a leaked one can be killed with itself, and giving up one's own access changes nothing else.
 */
export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/tokens/[id]">) => {
  const id = tokenIdOrNotFound((await ctx.params).id);
  const caller = await requireCaller(req, "read");
  if (caller.tokenId !== id) assertScope(caller, "research");
  await revokeToken(await serverRuntime(), id, caller.userId);
  return new Response(null, { status: 204 });
});
