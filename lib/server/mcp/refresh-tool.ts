/**
 * refresh_research: a new version of one of the caller's finished reports (lib/server/runs/refresh.ts),
 * its cited sources fetched again and compared. Another person's run is "no such run".
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AppError } from "../../errors.ts";
import { refreshRun } from "../runs/refresh.ts";
import { dashboardUrl, isRunId, type McpContext, rateLimitKeyOf, runIdInput } from "./context.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { jsonResult, toolCall } from "./tool-results.ts";

export function registerRefreshTool(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "refresh_research",
    {
      title: "Refresh a report (new version)",
      description:
        "Start a new version of a finished research run's report: the same question and settings, seeded with this version's sources and findings. The sources its report cited are fetched again and compared (unchanged, changed, gone) before research continues for what is new. Returns the new run's id and versionOf; follow it with follow_research, then compare the versions with get_diff.",
      inputSchema: { id: runIdInput },
    },
    ({ id }) =>
      toolCall(async () => {
        if (!isRunId(id)) throw new AppError("not_found", "No such run.");
        const starter = { caller: ctx.caller, rateLimitKey: rateLimitKeyOf(ctx) };
        const run = await refreshRun(ctx.rt, starter, id, ctx.env);
        return jsonResult({
          id: run.id,
          versionOf: run.versionOf,
          status: run.status,
          queuePosition: run.queuePosition,
          warnings: run.warnings,
          dashboardUrl: dashboardUrl(ctx, run.id),
        });
      }),
  );
}
