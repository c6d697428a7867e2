/**
 * export_report: the caller's report as a PDF or DOCX file (lib/server/exports/report-files.ts),
 * returned as an embedded resource (base64) with its download URL beside it.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { exportReportFile, reportFormats } from "../exports/report-files.ts";
import { isRunId, type McpContext, runIdInput } from "./context.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { NO_SUCH_RUN, toolCall, toolError } from "./tool-results.ts";

export function registerExportTool(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "export_report",
    {
      title: "Export a report as a file",
      description:
        "The report of one of your research runs as a PDF or Word (DOCX) file: each citation a numbered link (PDF) or footnote (DOCX) to a Sources section with each source's title, URL, verdict and the stored passage its claims rest on.",
      inputSchema: {
        id: runIdInput,
        format: z.enum(reportFormats).describe("pdf or docx."),
      },
      annotations: { readOnlyHint: true },
    },
    ({ id, format }) =>
      toolCall(async () => {
        if (!isRunId(id)) return toolError(NO_SUCH_RUN);
        const file = await exportReportFile(ctx.rt, id, ctx.caller.userId, format, ctx.env);
        const url = `${ctx.origin}/api/runs/${id}/report.${format}`;
        return {
          content: [
            { type: "text", text: `${file.filename} (${file.bytes.byteLength} bytes), also at ${url}` },
            {
              type: "resource",
              resource: { uri: url, mimeType: file.contentType, blob: file.bytes.toString("base64") },
            },
          ],
        };
      }),
  );
}
