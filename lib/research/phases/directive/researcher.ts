/**
 * One researcher: a ReAct loop over one directive, driven step by step (one model call per step,
 * tools without `execute`), so the engine — not the SDK — decides what runs. That is what lets it
 * enforce reflection (after a search or read, the next call must be `think`; anything else is not
 * carried out and a reflection request is injected), count the tool budget, share the run's
 * seen-URL set, and keep fetched text inside delimited data blocks.
 */
import { type ModelMessage, type ToolResultPart, tool } from "ai";
import { z } from "zod";
import type { TextCallResult } from "../../../ai/call.ts";
import { isContextWindowError } from "../../../ai/context-errors.ts";
import { domainOf, isWebUrl, normalizeUrl } from "../../../search/url.ts";
import type { EngineDeps } from "../../deps.ts";
import { rethrowIfFatal, throwIfAborted } from "../../errors.ts";
import {
  formatAlreadyRead,
  formatFetchFailure,
  formatInvalidUrl,
  formatPage,
  formatSearchFailure,
  formatSearchResults,
  reflectionRequest,
  researcherInstructions,
  researcherTask,
  type SearchResultView,
  SKIPPED_FOR_BUDGET,
  skippedForReflection,
  thinkRecorded,
  toolDescriptions,
} from "../../prompts/researcher.ts";
import { summarizationInstructions, summarizationPrompt } from "../../prompts/summarization.ts";
import type { DirectiveRecord, NewSourceInput, SourceRecord } from "../../store.ts";
import { createNoveltyTracker, type NoveltyInput } from "./novelty.ts";
import type { SeenUrls } from "./seen-urls.ts";
import { classifySourceQuality } from "./source-quality.ts";

export const researcherTools = {
  web_search: tool({
    description: toolDescriptions.web_search,
    inputSchema: z.object({ query: z.string().min(1).describe("A specific search query") }),
  }),
  extract_content: tool({
    description: toolDescriptions.extract_content,
    inputSchema: z.object({ url: z.string().min(1).describe("The URL of the page to read") }),
  }),
  think: tool({
    description: toolDescriptions.think,
    inputSchema: z.object({ reflection: z.string().min(1).describe("Your reflection") }),
  }),
  research_complete: tool({
    description: toolDescriptions.research_complete,
    inputSchema: z.object({ summary: z.string().describe("What was found and what remains open") }),
  }),
};

export type ResearcherStopReason =
  | "complete"
  | "budget"
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

/** Roughly a page of text: the summary a long fetched page is condensed to. */
const SUMMARY_MAX_WORDS = 600;
/** Text given to the summariser at most (~30k tokens); a longer page is summarised from its start. */
const MAX_SUMMARIZE_INPUT_CHARS = 120_000;
/** How much of a stored page a researcher is shown when another one already read it. */
const STORED_EXCERPT_CHARS = 2_000;
const SNIPPET_CHARS = 500;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()} …`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function canParse(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

export async function runResearcher(
  deps: EngineDeps,
  directive: DirectiveRecord,
  ctx: ResearcherContext,
): Promise<ResearcherOutcome> {
  const { config, store, events, signal } = deps;
  const directiveId = directive.id;
  const budget = config.researcherToolBudget;
  const maxSteps = budget * 3 + 6;
  const instructions = researcherInstructions({
    brief: ctx.brief,
    now: new Date(deps.clock.now()),
    toolBudget: budget,
  });
  const messages: ModelMessage[] = [{ role: "user", content: researcherTask(directive) }];
  const novelty = createNoveltyTracker();
  const mine = new Map<string, SourceRecord>(); // by normalised URL
  const sourceIds = new Set<string>();
  let toolCalls = 0;
  let summary: string | undefined;
  // The last search/read still awaiting a reflection, and the step it happened in.
  let pending: { after: string; step: number } | undefined;

  const finish = async (stopReason: ResearcherStopReason): Promise<ResearcherOutcome> => {
    if (stopReason !== "aborted") {
      await events.emit({ type: "researcher.complete", directiveId, reason: stopReason, toolCalls });
    }
    return { messages, toolCalls, stopReason, sourceIds: [...sourceIds], summary };
  };

  const remember = async (input: NewSourceInput) => {
    const result = await store.addSource(directiveId, input);
    const { source } = result;
    mine.set(source.normalizedUrl, source);
    sourceIds.add(source.id);
    if (result.created) {
      await events.emit({
        type: "source.added",
        sourceId: source.id,
        directiveId,
        url: source.url,
        title: source.title,
        domain: source.domain,
        quality: source.quality,
      });
    }
    return result;
  };

  /** A page the run already stored (this researcher's hits first, then anyone's). */
  const storedSource = async (normalizedUrl: string) =>
    mine.get(normalizedUrl) ?? (await store.getSourceByUrl(normalizedUrl));

  /** Links an existing source to this directive and records it as used here. */
  const link = (s: SourceRecord) =>
    remember({
      url: s.url,
      normalizedUrl: s.normalizedUrl,
      title: s.title,
      domain: s.domain,
      provider: s.provider,
      quality: s.quality,
      snippet: s.snippet,
      content: s.content,
    });

  const setContent = async (s: SourceRecord, content: string, title: string) => {
    if (s.content) return s;
    const updated = await store.updateSourceContent(s.id, content, s.title.trim() ? undefined : title);
    if (updated) mine.set(updated.normalizedUrl, updated);
    return updated ?? s;
  };

  const search = async (query: string): Promise<string> => {
    await events.emit({ type: "researcher.search", directiveId, query });
    let outcome: Awaited<ReturnType<EngineDeps["search"]>>;
    try {
      outcome = await deps.search(query, { maxResults: config.maxSearchResults, signal });
    } catch (e) {
      throwIfAborted(signal);
      const message = messageOf(e);
      await events.emit({
        type: "researcher.search_results",
        directiveId,
        query,
        results: 0,
        fresh: 0,
        duplicates: 0,
        errors: [{ provider: "search", message }],
      });
      return formatSearchFailure(query, message);
    }
    const hits = outcome.results.slice(0, config.maxSearchResults);
    const inputs: NoveltyInput[] = [];
    const views: Omit<SearchResultView, "mark" | "relatedTo">[] = [];
    for (const hit of hits) {
      const normalizedUrl = normalizeUrl(hit.url);
      const domain = domainOf(hit.url);
      const quality = classifySourceQuality(hit.url);
      const title = hit.title.trim() || domain || hit.url;
      const content = hit.content?.trim() ? hit.content : null;
      const { source, created } = await remember({
        url: hit.url,
        normalizedUrl,
        title,
        domain,
        provider: hit.provider,
        quality,
        snippet: hit.snippet || null,
        content,
      });
      // A provider's full text fills a row first stored without any (never overwrites one).
      if (!created && content) await setContent(source, content, title);
      inputs.push({ normalizedUrl, domain, title, knownInRun: !created });
      views.push({ quality, domain, url: hit.url, title, snippet: clip(hit.snippet, SNIPPET_CHARS) });
    }
    const n = novelty.assess(inputs);
    await events.emit({
      type: "researcher.search_results",
      directiveId,
      query,
      results: hits.length,
      fresh: n.fresh,
      duplicates: n.duplicates,
      errors: outcome.errors,
    });
    return formatSearchResults({
      query,
      results: views.map((v, i) => ({ ...v, ...n.verdicts[i] })),
      fresh: n.fresh,
      related: n.related,
      duplicates: n.duplicates,
      overlapWithPrevious: n.overlapWithPrevious,
      errors: outcome.errors,
    });
  };

  /** A long page condensed by a tool-less call; on failure the model gets the page's beginning. */
  const present = async (url: string, title: string, text: string) => {
    const base = { url, title, totalChars: text.length };
    if (text.length <= config.summarizeOverChars) {
      return formatPage({ ...base, text, summarised: false, clipped: false });
    }
    try {
      const r = await deps.models.text("summarization", {
        instructions: summarizationInstructions({ maxWords: SUMMARY_MAX_WORDS }),
        prompt: summarizationPrompt({
          topic: directive.topic,
          url,
          title,
          text: text.slice(0, MAX_SUMMARIZE_INPUT_CHARS),
        }),
        abortSignal: signal,
      });
      if (r.text.trim())
        return formatPage({ ...base, text: r.text.trim(), summarised: true, clipped: false });
    } catch (e) {
      rethrowIfFatal(e, signal);
      // Overflow or a failed call: fall through to the clipped page rather than losing it.
    }
    return formatPage({
      ...base,
      text: text.slice(0, config.summarizeOverChars),
      summarised: false,
      clipped: true,
    });
  };

  const extract = async (rawUrl: string): Promise<string> => {
    const url = rawUrl.trim();
    if (!/^[a-z][a-z0-9+.-]*:/i.test(url) || !canParse(url)) {
      await events.emit({ type: "researcher.fetch", directiveId, url, ok: false, reason: "invalid URL" });
      return formatInvalidUrl(url);
    }
    const normalizedUrl = normalizeUrl(url);

    if (!ctx.seenUrls.claim(normalizedUrl)) {
      // Read (or being read) by this run already: show what is stored instead of fetching again.
      const existing = await storedSource(normalizedUrl);
      if (existing) await link(existing);
      const stored = existing
        ? {
            title: existing.title,
            text: clip(existing.content ?? existing.snippet ?? "", STORED_EXCERPT_CHARS),
          }
        : undefined;
      await events.emit({
        type: "researcher.fetch",
        directiveId,
        url,
        ok: true,
        fromStore: true,
        reason: "already read in this run",
        chars: existing?.content?.length ?? 0,
      });
      return formatAlreadyRead({ url, stored });
    }

    const existing = await storedSource(normalizedUrl);
    if (existing?.content) {
      // A search provider already gave the full text: that is the snapshot; no need to fetch.
      await link(existing);
      await events.emit({
        type: "researcher.fetch",
        directiveId,
        url,
        ok: true,
        fromStore: true,
        chars: existing.content.length,
      });
      return present(url, existing.title, existing.content);
    }

    if (!isWebUrl(url)) {
      const reason = "only http and https pages can be read";
      await events.emit({ type: "researcher.fetch", directiveId, url, ok: false, reason });
      return formatFetchFailure(url, reason);
    }

    let doc: Awaited<ReturnType<EngineDeps["fetchDocument"]>>;
    try {
      doc = await deps.fetchDocument(url, { signal });
      if (!doc.text.trim()) throw new Error("the page has no readable text");
    } catch (e) {
      throwIfAborted(signal);
      const reason = messageOf(e);
      await events.emit({ type: "researcher.fetch", directiveId, url, ok: false, reason });
      return formatFetchFailure(url, reason);
    }

    const domain = domainOf(url);
    const title = doc.title.trim() || existing?.title || domain || url;
    const { source } = existing
      ? await link(existing)
      : await remember({
          url,
          normalizedUrl,
          title,
          domain,
          provider: "fetch",
          quality: classifySourceQuality(url),
          snippet: clip(doc.text.trim(), 300),
          content: doc.text,
        });
    // Stored first as a bare search hit (by us or, concurrently, by another researcher): add the text.
    const withText = await setContent(source, doc.text, title);
    await events.emit({ type: "researcher.fetch", directiveId, url, ok: true, chars: doc.text.length });
    return present(url, withText.title || title, doc.text);
  };

  for (let step = 0; ; step++) {
    if (signal.aborted) return finish("aborted");
    if (step >= maxSteps) return finish("step_limit");
    try {
      let reply: TextCallResult<typeof researcherTools>;
      try {
        reply = await deps.models.text("researcher", {
          instructions,
          messages,
          tools: researcherTools,
          abortSignal: signal,
        });
      } catch (e) {
        // Nothing gathered yet means nothing to compress: let the directive fail instead.
        if (!signal.aborted && step > 0 && isContextWindowError(e)) return finish("context_limit");
        throw e;
      }

      // Results the SDK wrote itself (invalid or unknown tool calls) are kept; ours are added below.
      const sdkResults = new Map<string, ToolResultPart>();
      for (const m of reply.responseMessages) {
        if (m.role !== "tool") messages.push(m);
        else
          for (const part of m.content)
            if (part.type === "tool-result") sdkResults.set(part.toolCallId, part);
      }
      if (reply.toolCalls.length === 0) return finish("no_tool_calls");

      const results: ToolResultPart[] = [];
      const skipped: string[] = [];
      let skippedAfter = "";
      let completed = false;
      for (const call of reply.toolCalls) {
        const answer = (value: string) =>
          results.push({
            type: "tool-result",
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: { type: "text", value },
          });
        if (call.dynamic) {
          results.push(
            sdkResults.get(call.toolCallId) ?? {
              type: "tool-result",
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              output: {
                type: "error-text",
                value: `Invalid call of ${call.toolName}: ${messageOf(call.error)}`,
              },
            },
          );
          continue;
        }
        if (call.toolName === "think") {
          // A reflection sent alongside the search it reflects on was written before the results.
          const early = pending !== undefined && pending.step === step;
          answer(thinkRecorded({ early, after: pending?.after }));
          if (!early) pending = undefined;
          await events.emit({ type: "researcher.think", directiveId, text: call.input.reflection });
          continue;
        }
        if (pending) {
          skipped.push(call.toolName);
          skippedAfter = pending.after;
          answer(skippedForReflection(pending.after));
          continue;
        }
        if (call.toolName === "research_complete") {
          summary = call.input.summary;
          completed = true;
          answer("Research marked complete.");
          continue;
        }
        if (completed) {
          answer("Not carried out: the research was already marked complete.");
          continue;
        }
        if (toolCalls >= budget) {
          answer(SKIPPED_FOR_BUDGET);
          continue;
        }
        toolCalls++;
        answer(
          call.toolName === "web_search" ? await search(call.input.query) : await extract(call.input.url),
        );
        pending = { after: call.toolName, step };
      }
      messages.push({ role: "tool", content: results });
      if (skipped.length > 0) {
        messages.push({ role: "user", content: reflectionRequest({ after: skippedAfter, skipped }) });
        await events.emit({ type: "researcher.reflection_injected", directiveId, after: skippedAfter });
      }
      if (completed) return finish("complete");
      if (toolCalls >= budget) return finish("budget");
    } catch (e) {
      if (signal.aborted) return finish("aborted");
      throw e;
    }
  }
}
