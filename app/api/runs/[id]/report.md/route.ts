import { handle } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { getRunReport } from "@/lib/server/runs";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** A download, never a page: the report is untrusted text and must not be rendered by the browser. */
export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/report.md">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const report = await getRunReport(await serverRuntime(), id, await currentOwner(req));
  return new Response(report.markdown, {
    headers: {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `attachment; filename="report-${id}.md"`,
      "x-content-type-options": "nosniff",
    },
  });
});
