import { getDb } from "@/db/client";
import { getReport } from "@/db/queries/research";
import { getRunForOwner } from "@/db/queries/runs";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/report.md">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const db = await getDb();
  const run = await getRunForOwner(db, id, await currentOwner(req));
  if (!run) throw new AppError("not_found", "No such run.");
  const report = await getReport(db, id);
  if (!report) throw new AppError("not_found", `The run has no report yet (status: ${run.status}).`);
  return new Response(report.markdown, {
    headers: {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `inline; filename="report-${id}.md"`,
    },
  });
});
