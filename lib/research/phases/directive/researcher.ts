/**
 * One researcher: a ReAct loop over one directive, driven step by step (one model call per step,
 * tools without `execute`), so the engine — not the SDK — decides what runs. That is what lets it
 * enforce reflection (after a search or read, the next call must be `think`; anything else is not
 * carried out and a reflection request is injected), apply the stop rules (stop-rules.ts: enough
 * relevant sources, repeated searches, the tool budget), share the run's
 * seen-URL set and its readable URLs, and keep fetched text inside delimited data blocks. The tools themselves are in
 * researcher-tools.ts, the sources a researcher stores in researcher-sources.ts.
 */
import { type ModelMessage, type ToolResultPart, type TypedToolCall, tool } from "ai";
import { z } from "zod";
import type { TextCallResult } from "../../../ai/call.ts";
import { isContextWindowError } from "../../../ai/context-errors.ts";
import type { EngineDeps } from "../../deps.ts";
import { filledText } from "../../model-output.ts";
import {
  reflectionRequest,
  researcherInstructions,
  researcherTask,
  SKIPPED_FOR_BUDGET,
  skippedForReflection,
  thinkRecorded,
  toolDescriptions,
} from "../../prompts/researcher.ts";
import type { DirectiveRecord } from "../../store.ts";
import { type BackgroundEvents, inBackground } from "./background-events.ts";
import type { KnownSources } from "./known-sources.ts";
import { createNoveltyTracker } from "./novelty.ts";
import type { ReadableUrls } from "./readable-urls.ts";
import { createResearcherSources } from "./researcher-sources.ts";
import { extractContent, messageOf, type ToolContext, webSearch } from "./researcher-tools.ts";
import type { SeenUrls } from "./seen-urls.ts";
import { createStopRules, type StopRule } from "./stop-rules.ts";

/**
 * Strict tools (providers constrain the arguments to the schema); a blank argument is refused after
 * parsing and reported to the model as an invalid call, since no portable schema keyword can say "not empty".
 */
export const researcherTools = {
  web_search: tool({
    description: toolDescriptions.web_search,
    inputSchema: z.object({ query: filledText("the query").describe("A specific search query") }),
    strict: true,
  }),
  extract_content: tool({
    description: toolDescriptions.extract_content,
    inputSchema: z.object({ url: filledText("the URL").describe("The URL of the page to read") }),
    strict: true,
  }),
  think: tool({
    description: toolDescriptions.think,
    inputSchema: z.object({ reflection: filledText("the reflection").describe("Your reflection") }),
    strict: true,
  }),
  research_complete: tool({
    description: toolDescriptions.research_complete,
    inputSchema: z.object({ summary: z.string().describe("What was found and what remains open") }),
    strict: true,
  }),
};

export type ResearcherStopReason =
  | "complete"
  /** A stop rule checked in code (stop-rules.ts); `researcher.stopped` carries the counts. */
  | StopRule
  | "no_tool_calls"
  | "aborted"
  /** The conversation outgrew the model's context window; what was gathered goes to compression. */
  | "context_limit"
  /** A model that only ever thinks (free calls) is stopped after this many steps. */
  | "step_limit";

export interface ResearcherContext {
  brief: string;
  /** Shared by every researcher of the run. */
  seenUrls: SeenUrls;
  /** Shared by every researcher of the run: the URLs it has stored as sources. */
  knownSources: KnownSources;
  /** Shared by every researcher of the run: what extract_content may read (loadReadableUrls). */
  readableUrls: ReadableUrls;
}

export interface ResearcherOutcome {
  /** The whole conversation after the system prompt: task, assistant turns (with reasoning), tool results. */
  messages: ModelMessage[];
  /** web_search and extract_content calls carried out. */
  toolCalls: number;
  stopReason: ResearcherStopReason;
  /** Sources this researcher stored or used. */
  sourceIds: string[];
  /** The model's own summary when it called research_complete. */
  summary?: string;
}

type ResearcherToolCall = TypedToolCall<typeof researcherTools>;

/** One researcher's conversation, carried from step to step. */
interface ResearcherRun {
  deps: EngineDeps;
  tools: ToolContext;
  instructions: string;
  budget: number;
  messages: ModelMessage[];
  /** web_search and extract_content calls carried out so far. */
  toolCalls: number;
  summary?: string;
  /** The last search/read still awaiting a reflection, and the step it happened in. */
  pending?: { after: string; step: number };
  /** The stop rule met by a reflection of this step: nothing after it is carried out. */
  stopRule?: StopRule;
}

/** The tool results of one step, and what the step's calls decided. */
interface StepAnswers {
  results: ToolResultPart[];
  /** Tools not carried out because a reflection was due first. */
  skipped: string[];
  skippedAfter: string;
  completed: boolean;
}

export async function runResearcher(
  deps: EngineDeps,
  directive: DirectiveRecord,
  ctx: ResearcherContext,
): Promise<ResearcherOutcome> {
  // The researcher's own events are written behind its calls, not in front of them; all of them
  // are stored before it returns (and so before its directive's end is).
  const events = inBackground(deps.events);
  try {
    const outcome = await research({ ...deps, events }, directive, ctx, events);
    await events.flush();
    return outcome;
  } catch (e) {
    await events.flush().catch(() => {});
    throw e;
  }
}

async function research(
  deps: EngineDeps,
  directive: DirectiveRecord,
  ctx: ResearcherContext,
  background: BackgroundEvents,
): Promise<ResearcherOutcome> {
  const run = startResearcher(deps, directive, ctx, background);
  const maxSteps = run.budget * 3 + 6;
  for (let step = 0; ; step++) {
    if (deps.signal.aborted) return finish(run, "aborted");
    if (step >= maxSteps) return finish(run, "step_limit");
    try {
      const stop = await researchStep(run, step);
      if (stop) return finish(run, stop);
    } catch (e) {
      if (deps.signal.aborted) return finish(run, "aborted");
      throw e;
    }
  }
}

function startResearcher(
  deps: EngineDeps,
  directive: DirectiveRecord,
  ctx: ResearcherContext,
  background: BackgroundEvents,
): ResearcherRun {
  const { config } = deps;
  const budget = config.researcherToolBudget;
  return {
    deps,
    tools: {
      deps,
      directive,
      seenUrls: ctx.seenUrls,
      readableUrls: ctx.readableUrls,
      background,
      knownSources: ctx.knownSources,
      novelty: createNoveltyTracker(),
      sources: createResearcherSources(deps, directive.id),
      stopRules: createStopRules({
        relevantSourcesToStop: config.relevantSourcesToStop,
        similarSearchOverlap: config.similarSearchOverlap,
        toolBudget: budget,
      }),
    },
    instructions: researcherInstructions({
      brief: ctx.brief,
      now: new Date(deps.clock.now()),
      toolBudget: budget,
      relevantSources: config.relevantSourcesToStop,
    }),
    budget,
    messages: [{ role: "user", content: researcherTask(directive) }],
    toolCalls: 0,
  };
}

async function finish(run: ResearcherRun, stopReason: ResearcherStopReason): Promise<ResearcherOutcome> {
  const { messages, toolCalls, summary } = run;
  if (isStopRule(stopReason)) {
    await run.deps.events.emit({
      type: "researcher.stopped",
      directiveId: run.tools.directive.id,
      reason: stopReason,
      counts: run.tools.stopRules.counts(toolCalls),
    });
  }
  if (stopReason !== "aborted") {
    await run.deps.events.emit({
      type: "researcher.complete",
      directiveId: run.tools.directive.id,
      reason: stopReason,
      toolCalls,
    });
  }
  // Pages read in the last steps may still be being stored: the sources used are known once they are.
  await run.tools.background.flush();
  return { messages, toolCalls, stopReason, sourceIds: [...run.tools.sources.ids], summary };
}

/** One model call and the tool calls it asked for; returns why the loop stops, if it does. */
async function researchStep(run: ResearcherRun, step: number): Promise<ResearcherStopReason | undefined> {
  let reply: TextCallResult<typeof researcherTools>;
  try {
    reply = await run.deps.models.text("researcher", {
      instructions: run.instructions,
      messages: run.messages,
      tools: researcherTools,
      abortSignal: run.deps.signal,
    });
  } catch (e) {
    // Nothing gathered yet means nothing to compress: let the directive fail instead.
    if (!run.deps.signal.aborted && step > 0 && isContextWindowError(e)) return "context_limit";
    throw e;
  }

  // Results the SDK wrote itself (invalid or unknown tool calls) are kept; ours are added below.
  const sdkResults = new Map<string, ToolResultPart>();
  for (const m of reply.responseMessages) {
    if (m.role !== "tool") run.messages.push(m);
    else for (const part of m.content) if (part.type === "tool-result") sdkResults.set(part.toolCallId, part);
  }
  if (reply.toolCalls.length === 0) return "no_tool_calls";

  const answers: StepAnswers = { results: [], skipped: [], skippedAfter: "", completed: false };
  for (const call of reply.toolCalls) await answerToolCall(run, call, step, answers, sdkResults);
  run.messages.push({ role: "tool", content: answers.results });
  if (answers.skipped.length > 0) {
    const after = answers.skippedAfter;
    run.messages.push({ role: "user", content: reflectionRequest({ after, skipped: answers.skipped }) });
    await run.deps.events.emit({
      type: "researcher.reflection_injected",
      directiveId: run.tools.directive.id,
      after,
    });
  }
  // A rule met in this step outranks a research_complete sent beside it: it was met first.
  if (run.stopRule) return run.stopRule;
  if (answers.completed) return "complete";
  return run.tools.stopRules.ruleMet(run.toolCalls, run.pending === undefined);
}

function isStopRule(reason: ResearcherStopReason): reason is StopRule {
  return reason === "relevant_sources" || reason === "similar_searches" || reason === "budget";
}

/**
 * Carries out one tool call, or says why it was not: a search or read must be followed by a
 * `think` before the next one, nothing runs after research_complete, and the tool budget is final.
 */
async function answerToolCall(
  run: ResearcherRun,
  call: ResearcherToolCall,
  step: number,
  answers: StepAnswers,
  sdkResults: ReadonlyMap<string, ToolResultPart>,
): Promise<void> {
  const answer = (value: string) =>
    answers.results.push({
      type: "tool-result",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: "text", value },
    });
  if (call.dynamic) {
    answers.results.push(
      sdkResults.get(call.toolCallId) ?? {
        type: "tool-result",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: "error-text", value: `Invalid call of ${call.toolName}: ${messageOf(call.error)}` },
      },
    );
    return;
  }
  const { pending } = run;
  if (call.toolName === "think") {
    // A reflection sent alongside the search it reflects on was written before the results.
    const early = pending !== undefined && pending.step === step;
    if (!early) run.pending = undefined;
    const rules = run.tools.stopRules;
    run.stopRule ??= rules.ruleMet(run.toolCalls, run.pending === undefined);
    answer(
      thinkRecorded({
        early,
        after: pending?.after,
        counts: rules.counts(run.toolCalls),
        thresholds: rules.thresholds,
        ruleMet: run.stopRule,
      }),
    );
    const directiveId = run.tools.directive.id;
    await run.deps.events.emit({ type: "researcher.think", directiveId, text: call.input.reflection });
    return;
  }
  if (pending) {
    answers.skipped.push(call.toolName);
    answers.skippedAfter = pending.after;
    answer(skippedForReflection(pending.after));
    return;
  }
  if (call.toolName === "research_complete") {
    run.summary = call.input.summary;
    answers.completed = true;
    answer("Research marked complete.");
    return;
  }
  if (run.stopRule) {
    answer("Not carried out: a stop rule ended this research.");
    return;
  }
  if (answers.completed) {
    answer("Not carried out: the research was already marked complete.");
    return;
  }
  if (run.toolCalls >= run.budget) {
    answer(SKIPPED_FOR_BUDGET);
    return;
  }
  run.toolCalls++;
  answer(
    call.toolName === "web_search"
      ? await webSearch(run.tools, call.input.query)
      : await extractContent(run.tools, call.input.url),
  );
  run.pending = { after: call.toolName, step };
}
