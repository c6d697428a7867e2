/**
 * research://runs/{id}/report: a finished run's report as Markdown with its Sources, the same text
 * as GET /api/runs/:id/report.md. The list offers the caller's completed runs, newest first.
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { getRunReport, listRunSummaries } from "../runs/view.ts";
import { isRunId, type McpContext } from "./context.ts";
import { errorMessage, NO_SUCH_RUN } from "./tool-results.ts";

/** MCP's code for a resource that does not exist (a read has no `isError` result, unlike a tool). */
const RESOURCE_NOT_FOUND = -32002;

export const reportUri = (runId: string) => `research://runs/${runId}/report`;

export function registerReportResource(server: McpServer, ctx: McpContext): void {
  const template = new ResourceTemplate("research://runs/{id}/report", {
    list: async () => {
      const runs = await listRunSummaries(ctx.rt, ctx.caller.userId);
      return {
        resources: runs
          .filter((r) => r.status === "completed")
          .map((r) => ({
            uri: reportUri(r.id),
            name: r.question.length > 80 ? `${r.question.slice(0, 79)}…` : r.question,
            description: `Research report (${r.sourceCount} sources)`,
            mimeType: "text/markdown",
          })),
      };
    },
  });
  server.registerResource(
    "research-report",
    template,
    {
      title: "Research report",
      description: "A research run's report in Markdown, with its Sources.",
      mimeType: "text/markdown",
    },
    async (uri, variables) => {
      const id = String(variables.id ?? "");
      try {
        if (!isRunId(id)) throw new McpError(RESOURCE_NOT_FOUND, NO_SUCH_RUN);
        const report = await getRunReport(ctx.rt, id, ctx.caller.userId);
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: report.markdown }] };
      } catch (e) {
        if (e instanceof McpError) throw e;
        // "No research run with that id", or the run's own "has no report yet (status: …)".
        const message = errorMessage(e, notFoundMessage(e));
        throw new McpError(RESOURCE_NOT_FOUND, message);
      }
    },
  );
}

/** A run that is the caller's but has no report says so; anything else is the one not-found sentence. */
function notFoundMessage(e: unknown): string {
  return e instanceof Error && e.message.startsWith("The run has no report yet") ? e.message : NO_SUCH_RUN;
}
