import { handle } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { cancelRun } from "@/lib/server/runs/cancel";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/cancel">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const rt = await serverRuntime();
  await enforceRateLimit(rt, req, "actions");
  const result = await cancelRun(rt, id, await currentOwner(req, "research"));
  return Response.json(result, { status: 202 });
});
