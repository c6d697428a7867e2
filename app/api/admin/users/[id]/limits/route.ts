import { handle, readJson } from "@/lib/http";
import { setUserLimits, userLimitsSchema } from "@/lib/server/accounts/set-limits";
import { requireAdmin } from "@/lib/server/auth/caller";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Sets one person's run limits; null for either means the server's default. Admins only (404 otherwise). */
export const PUT = handle(async (req: Request, ctx: RouteContext<"/api/admin/users/[id]/limits">) => {
  await requireAdmin(req, "session");
  const { id } = await ctx.params;
  const input = await readJson(req, userLimitsSchema);
  return Response.json({ limits: await setUserLimits(await serverRuntime(), id, input) });
});
