/**
 * get_diff: what changed between two versions of one of the caller's reports, claim by claim
 * (lib/server/runs/diff.ts, the same answer as GET /api/runs/:id/diff?against=).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { diffRuns } from "../runs/diff.ts";
import { isRunId, type McpContext, runIdInput } from "./context.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { jsonResult, NO_SUCH_RUN, toolCall, toolError } from "./tool-results.ts";

export function registerDiffTool(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "get_diff",
    {
      title: "What changed between two versions of a report",
      description:
        "Compares the report of run `id` (the newer version) with the report of run `against` (the older one): claims (cited sentences with their sources' URLs) added, removed and changed (before/after; a changed figure is a changed claim), and cited sources added, removed and changed (their stored text differs). `differ` says whether anything that matters changed.",
      inputSchema: {
        id: runIdInput.describe("The newer version's run id."),
        against: runIdInput.describe("The older version's run id, to compare with."),
      },
      annotations: { readOnlyHint: true },
    },
    ({ id, against }) =>
      toolCall(async () => {
        if (!isRunId(id) || !isRunId(against)) return toolError(NO_SUCH_RUN);
        return jsonResult(await diffRuns(ctx.rt, id, against, ctx.caller.userId));
      }),
  );
}
