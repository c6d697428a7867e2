import { handle } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { finishRunNow } from "@/lib/server/runs/finish";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** "Stop and write the report now": research stops; the run ends completed with a partial report. */
export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/finish">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const rt = await serverRuntime();
  await enforceRateLimit(rt, req, "actions");
  const result = await finishRunNow(rt, id, await currentOwner(req, "research"));
  return Response.json(result, { status: 202 });
});
