/**
 * ask_report: a follow-up question about a finished run's report, answered from the run's stored
 * sources (lib/server/questions). Waits for the answer up to MCP_FOLLOW_SECONDS; a slower answer
 * is read later with get_research's thread or GET /api/runs/:id/questions.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { askQuestion } from "../questions/ask-question.ts";
import { askQuestionRequestSchema } from "../questions/schemas.ts";
import { waitForAnswer } from "../questions/wait-answer.ts";
import { consumeRateLimit } from "../rate-limits.ts";
import { followSeconds } from "../runs/follow.ts";
import { isRunId, type McpContext, rateLimitKeyOf, runIdInput } from "./context.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { jsonResult, toolCall } from "./tool-results.ts";

export function registerAskTool(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "ask_report",
    {
      title: "Ask about a report",
      description:
        "Ask a follow-up question about a finished research run's report. The answer is written from the report and the run's stored sources, citing them as [N] (the report's numbers; other sources of the run get the next ones); status not_in_sources means the sources do not answer it.",
      inputSchema: {
        id: runIdInput,
        question: z.string().describe("The question (at least 3 characters)."),
      },
    },
    ({ id, question }) =>
      toolCall(async () => {
        if (!isRunId(id)) throw new AppError("not_found", "No such run.");
        const parsed = askQuestionRequestSchema.safeParse({ question });
        if (!parsed.success) throw new AppError("validation_failed", parsed.error.issues[0].message);
        await consumeRateLimit(ctx.rt.handle, "actions", rateLimitKeyOf(ctx), ctx.env);
        const asked = await askQuestion(ctx.rt, id, ctx.caller.userId, parsed.data);
        const answer = await waitForAnswer(ctx.rt, id, ctx.caller.userId, asked.id, {
          seconds: followSeconds(ctx.env),
          signal: ctx.signal,
        });
        return jsonResult(answer ?? { id: asked.id, status: "queued" });
      }),
  );
}
