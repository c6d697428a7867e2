/**
 * Lineage tools: research_deeper starts a child run of a finished run (lib/server/runs/deeper.ts),
 * seeded with its brief, read sources and findings. Another person's run is "no such run".
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { deeperRequestSchema, researchDeeper } from "../runs/deeper.ts";
import { dashboardUrl, isRunId, type McpContext, rateLimitKeyOf, runIdInput } from "./context.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { jsonResult, toolCall } from "./tool-results.ts";

export function registerLineageTools(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "research_deeper",
    {
      title: "Research a report deeper",
      description:
        "Start a follow-up run of a finished research run: it inherits the run's brief, its read sources (not fetched again) and its findings, and researches what they leave open. Give `question` to research a narrower question (e.g. one ask_report could not answer) in the run's context. Returns the new run's id; follow it with follow_research.",
      inputSchema: {
        id: runIdInput,
        question: z
          .string()
          .optional()
          .describe("Optional: the question to research deeper (at least 3 characters)."),
      },
    },
    ({ id, question }) =>
      toolCall(async () => {
        if (!isRunId(id)) throw new AppError("not_found", "No such run.");
        const parsed = deeperRequestSchema.safeParse(question === undefined ? {} : { question });
        if (!parsed.success) throw new AppError("validation_failed", parsed.error.issues[0].message);
        const starter = { caller: ctx.caller, rateLimitKey: rateLimitKeyOf(ctx) };
        const run = await researchDeeper(ctx.rt, starter, id, parsed.data, ctx.env);
        return jsonResult({
          id: run.id,
          parentId: id,
          status: run.status,
          queuePosition: run.queuePosition,
          warnings: run.warnings,
          dashboardUrl: dashboardUrl(ctx, run.id),
        });
      }),
  );
}
