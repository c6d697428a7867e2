import { reportFilename } from "@/components/report/filename";
import { handle } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { reportWithThread } from "@/lib/server/questions/thread-markdown";
import { getRunQuestion, getRunReport } from "@/lib/server/runs/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/**
 * A download, never a page: the report is untrusted text and must not be rendered by the browser.
 * The run page's Download button asks with ?download=1 and gets a file named from the question;
 * programmatic clients keep the stable `report-<id>.md`.
 */
export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/report.md">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const rt = await serverRuntime();
  const owner = await currentOwner(req, "read");
  const report = await getRunReport(rt, id, owner);
  const named = new URL(req.url).searchParams.get("download") === "1";
  const filename = named ? reportFilename(await getRunQuestion(rt, id, owner)) : `report-${id}.md`;
  // The follow-up questions answered about the report go with it.
  return new Response(await reportWithThread(rt, id, report.markdown), {
    headers: {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "x-content-type-options": "nosniff",
    },
  });
});
