import { handle } from "@/lib/http";
import { runIdOrNotFound, sourceIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { getSourceView } from "@/lib/server/runs/source";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/sources/[sourceId]">) => {
  const params = await ctx.params;
  const runId = runIdOrNotFound(params.id);
  const sourceId = sourceIdOrNotFound(params.sourceId);
  return Response.json(
    await getSourceView(await serverRuntime(), runId, sourceId, await currentOwner(req, "read")),
  );
});
