import { handle } from "@/lib/http";
import { exportReportFile, reportFileResponse } from "@/lib/server/exports/report-files";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** The owner's report as a DOCX file (a download; see lib/server/exports/report-files.ts). */
export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/report.docx">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const owner = await currentOwner(req, "read");
  return reportFileResponse(await exportReportFile(await serverRuntime(), id, owner, "docx"));
});
