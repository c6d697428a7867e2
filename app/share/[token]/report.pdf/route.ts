import { handle } from "@/lib/http";
import { reportFileResponse } from "@/lib/server/exports/report-files";
import { sharedReportPdf } from "@/lib/server/exports/shared-pdf";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** The shared report as a PDF, when its owner allowed downloads (no login: the link is the key). */
export const GET = handle(async (_req: Request, ctx: RouteContext<"/share/[token]/report.pdf">) => {
  const { token } = await ctx.params;
  return reportFileResponse(await sharedReportPdf(await serverRuntime(), token));
});
