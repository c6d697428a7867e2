import { handle } from "@/lib/http";
import { parseRunId } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { listRunVersions } from "@/lib/server/runs/versions";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** The versions of the report this run belongs to, oldest first. */
export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/versions">) => {
  const owner = await currentOwner(req, "read");
  const id = parseRunId((await ctx.params).id);
  return Response.json(await listRunVersions(await serverRuntime(), id, owner));
});
