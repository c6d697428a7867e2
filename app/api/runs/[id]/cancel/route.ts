import { handle } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { cancelRun } from "@/lib/server/run-actions";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/cancel">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const result = await cancelRun(await serverRuntime(), id, await currentOwner(req));
  return Response.json(result, { status: 202 });
});
