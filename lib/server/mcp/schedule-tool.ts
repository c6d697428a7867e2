/**
 * schedule_refresh: refresh a report every day, week or month, or stop (lib/server/schedules), the
 * same as PUT/DELETE /api/runs/:id/schedule. Another person's run is "no such run".
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { removeSchedule, setSchedule } from "../schedules/schedule.ts";
import { isRunId, type McpContext, runIdInput } from "./context.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { jsonResult, toolCall } from "./tool-results.ts";

export function registerScheduleTool(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "schedule_refresh",
    {
      title: "Refresh a report on a schedule",
      description:
        "Refresh a finished report every `day`, `week` or `month` (UTC): each time a new version with the same question and settings, within your limits and budget (when they say no, the schedule pauses with the reason). `off` removes the schedule. When a new version differs from the one before, you get a notice and, with a webhook URL, run.version_ready.",
      inputSchema: {
        id: runIdInput,
        every: z.enum(["day", "week", "month", "off"]).describe("How often, or `off` to stop."),
      },
    },
    ({ id, every }) =>
      toolCall(async () => {
        if (!isRunId(id)) throw new AppError("not_found", "No such run.");
        const owner = ctx.caller.userId;
        if (every === "off") return jsonResult(await removeSchedule(ctx.rt, owner, id));
        return jsonResult({ schedule: await setSchedule(ctx.rt, owner, id, { every }) });
      }),
  );
}
