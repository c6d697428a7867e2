/**
 * Tools that start, read, steer and cancel research runs. Each goes through the same lib/server
 * functions as the HTTP routes, with the token owner's id: the same validation, ceilings, rate
 * limits, slot limits and ownership (another person's run is "No research run with that id").
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { directivePriorities } from "../../research/ui.ts";
import { consumeRateLimit } from "../rate-limits.ts";
import { cancelRun } from "../runs/cancel.ts";
import { createRunSchema } from "../runs/input.ts";
import { startRun } from "../runs/start.ts";
import { addUserDirective } from "../runs/steer.ts";
import { steerRequestSchema } from "../runs/steer-input.ts";
import { findRunView } from "../runs/view.ts";
import type { RunView } from "../runs/view-model.ts";
import { dashboardUrl, isRunId, type McpContext, rateLimitKeyOf, runIdInput } from "./context.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { jsonResult, toolCall } from "./tool-results.ts";

/** The owner's run as the API shows it, or the not-found error every tool answers with. */
export async function ownedRunView(ctx: McpContext, id: string): Promise<RunView> {
  const view = isRunId(id) ? await findRunView(ctx.rt, id, ctx.caller.userId) : undefined;
  if (!view) throw new AppError("not_found", "No such run.");
  return view;
}

function sourceList(view: RunView) {
  return view.sources.map(({ id, url, title, domain, quality }) => ({ id, url, title, domain, quality }));
}

/** What get_research shows: where the run stands, and the report with its sources once there is one. */
export function researchStatus(ctx: McpContext, view: RunView) {
  return {
    id: view.id,
    question: view.question,
    status: view.status,
    phase: view.phase,
    queuePosition: view.queuePosition,
    dashboardUrl: dashboardUrl(ctx, view.id),
    clarificationQuestion: view.clarificationQuestion,
    directives: view.directives.map((d) => ({
      id: d.id,
      topic: d.topic,
      priority: d.priority,
      status: d.status,
      origin: d.origin,
      stopReason: d.stopReason,
    })),
    coverage: view.coverage,
    sourceCount: view.sources.length,
    error: view.error,
    ...(view.report
      ? { report: view.report, reportPartial: view.reportPartial, sources: sourceList(view) }
      : {}),
  };
}

export function registerRunTools(server: McpServer, ctx: McpContext): void {
  registerStartResearch(server, ctx);
  registerGetResearch(server, ctx);
  registerListSources(server, ctx);
  registerAddDirective(server, ctx);
  registerCancelResearch(server, ctx);
}

function registerStartResearch(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "start_research",
    {
      title: "Start research",
      description:
        "Start a deep research run on a question. Returns the run id and the address of its dashboard; follow it with follow_research or get_research.",
      inputSchema: {
        question: z.string().describe("What to research (at least 3 characters)."),
        settings: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            "Optional run settings, as for POST /api/runs (e.g. maxSupervisionRounds, maxConcurrentResearchers, searchProviders).",
          ),
      },
    },
    ({ question, settings }) =>
      toolCall(async () => {
        const parsed = createRunSchema.safeParse({ question, settings });
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`);
          throw new AppError("validation_failed", `Invalid request: ${issues.join("; ")}`);
        }
        const starter = { caller: ctx.caller, rateLimitKey: rateLimitKeyOf(ctx) };
        const run = await startRun(ctx.rt, starter, parsed.data, ctx.env);
        return jsonResult({
          id: run.id,
          status: run.status,
          queuePosition: run.queuePosition,
          warnings: run.warnings,
          dashboardUrl: dashboardUrl(ctx, run.id),
        });
      }),
  );
}

function registerGetResearch(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "get_research",
    {
      title: "Get research",
      description:
        "A research run's status, phase, directives and coverage; once it is done, its report (Markdown) and the sources it cites.",
      inputSchema: { id: runIdInput },
      annotations: { readOnlyHint: true },
    },
    ({ id }) => toolCall(async () => jsonResult(researchStatus(ctx, await ownedRunView(ctx, id)))),
  );
}

function registerListSources(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "list_sources",
    {
      title: "List sources",
      description: "The sources a research run has found so far: URL, title, domain and quality tier.",
      inputSchema: { id: runIdInput },
      annotations: { readOnlyHint: true },
    },
    ({ id }) => toolCall(async () => jsonResult({ sources: sourceList(await ownedRunView(ctx, id)) })),
  );
}

function registerAddDirective(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "add_directive",
    {
      title: "Add a directive",
      description:
        "Steer a running research run: add a topic for it to research. Refused once the run is writing its report, or when it already has a directive that says nearly the same.",
      inputSchema: {
        id: runIdInput,
        topic: z.string().describe("What to research (at least 5 characters)."),
        priority: z.enum(directivePriorities).default("normal").describe("critical, high, normal or low."),
      },
    },
    ({ id, topic, priority }) =>
      toolCall(async () => {
        const input = steerRequestSchema.safeParse({ topic, priority });
        if (!input.success)
          throw new AppError("validation_failed", input.error.issues[0]?.message ?? "Invalid topic.");
        if (!isRunId(id)) throw new AppError("not_found", "No such run.");
        await consumeRateLimit(ctx.rt.handle, "actions", rateLimitKeyOf(ctx), ctx.env);
        const directive = await addUserDirective(ctx.rt, id, ctx.caller.userId, input.data);
        return jsonResult({
          directiveId: directive.id,
          topic: input.data.topic,
          priority: input.data.priority,
        });
      }),
  );
}

function registerCancelResearch(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "cancel_research",
    {
      title: "Cancel research",
      description: "Cancel a research run that has not ended.",
      inputSchema: { id: runIdInput },
      annotations: { destructiveHint: true },
    },
    ({ id }) =>
      toolCall(async () => {
        if (!isRunId(id)) throw new AppError("not_found", "No such run.");
        await consumeRateLimit(ctx.rt.handle, "actions", rateLimitKeyOf(ctx), ctx.env);
        return jsonResult(await cancelRun(ctx.rt, id, ctx.caller.userId));
      }),
  );
}
