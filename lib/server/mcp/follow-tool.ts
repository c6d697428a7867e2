/**
 * The follow_research tool: progress notifications (or, for a client that gave no progress token,
 * log messages) for each new event, then the run's status so the client can call again.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { followRun, followSeconds } from "../runs/follow.ts";
import { isRunId, type McpContext, runIdInput } from "./context.ts";
import { ownedRunView } from "./run-tools.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { jsonResult, toolCall } from "./tool-results.ts";

const nextStep = {
  finished: "The run has ended; get_research has its report.",
  waiting_for_you: "The run waits for you: answer its question or review its plan on the dashboard.",
  time_up: "Still running: call follow_research again with `after` set to `cursor` to keep following.",
  client_gone: "The request ended before the run did.",
} as const;

export function registerFollowTool(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "follow_research",
    {
      title: "Follow research",
      description:
        "Follow a research run as it works: sends a progress notification for each phase change, directive, source and coverage assessment until the run ends or about 50 seconds pass, then returns its status. Call again (with `after` = the returned cursor) to keep following.",
      inputSchema: {
        id: runIdInput,
        after: z
          .number()
          .int()
          .min(0)
          .default(0)
          .describe("Report only events after this cursor (the `cursor` a previous call returned)."),
      },
      annotations: { readOnlyHint: true },
    },
    ({ id, after }, extra) =>
      toolCall(async () => {
        if (!isRunId(id)) throw new AppError("not_found", "No such run.");
        const progressToken = extra._meta?.progressToken;
        let progress = 0;
        const notify = async (message: string) => {
          progress++;
          if (progressToken !== undefined) {
            await extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken, progress, message },
            });
          } else {
            await extra.sendNotification({
              method: "notifications/message",
              params: { level: "info", logger: "research", data: message },
            });
          }
        };
        const result = await followRun(ctx.rt, id, ctx.caller.userId, {
          after,
          seconds: followSeconds(ctx.env),
          signal: AbortSignal.any([ctx.signal, extra.signal]),
          notify,
        });
        const view = await ownedRunView(ctx, id);
        return jsonResult({
          id,
          status: view.status,
          phase: view.phase,
          coverage: view.coverage,
          sourceCount: view.sources.length,
          directives: view.directives.length,
          cursor: result.cursor,
          eventsReported: result.notified,
          next: nextStep[result.ended],
        });
      }),
  );
}
