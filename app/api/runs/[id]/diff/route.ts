import { handle } from "@/lib/http";
import { parseRunId } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { diffRuns, parseDiffQuery } from "@/lib/server/runs/diff";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** What changed from ?against= (before) to this run (after), claim by claim. */
export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/diff">) => {
  const owner = await currentOwner(req, "read");
  const id = parseRunId((await ctx.params).id);
  const against = parseDiffQuery(req.url);
  return Response.json(await diffRuns(await serverRuntime(), id, against, owner));
});
