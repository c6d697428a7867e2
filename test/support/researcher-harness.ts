// Test-only wiring for the researcher unit: a real RunStore on in-memory PGlite, mock models routed
// by role, scripted researchers that pick their reply from the conversation (so concurrent
// researchers stay deterministic), and local search/fetch fakes that count their calls.
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll } from "vitest";
import type { DatabaseHandle } from "../../db/client.ts";
import { createRun } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { createModelClient } from "../../lib/ai/client.ts";
import { createModelRegistry } from "../../lib/ai/registry.ts";
import type { Role } from "../../lib/ai/roles.ts";
import { defaultResearchConfig, type ResearchConfig } from "../../lib/research/config.ts";
import type {
  EngineDeps,
  EngineDocument,
  EngineSearchOutcome,
  EngineSearchResult,
} from "../../lib/research/deps.ts";
import type { ResearchEvent } from "../../lib/research/events.ts";
import { createKnownSources } from "../../lib/research/phases/directive/known-sources.ts";
import { createReadableUrls } from "../../lib/research/phases/directive/readable-urls.ts";
import { createSeenUrls } from "../../lib/research/phases/directive/seen-urls.ts";
import type { DirectiveRecord, RunStore } from "../../lib/research/store.ts";
import { type GenerateOptions, type GenerateResult, scriptedModel, usageOf } from "./ai-mocks.ts";
import { openMigratedPglite } from "./db-template.ts";

export async function openEngineDb(): Promise<DatabaseHandle> {
  const handle = await openMigratedPglite();
  return handle;
}

/** Opens the engine's database before a test file's tests and closes it after; read `.handle` in tests. */
export function engineDbForFile(): { handle: DatabaseHandle } {
  const engine = {} as { handle: DatabaseHandle };
  beforeAll(async () => {
    engine.handle = await openEngineDb();
  });
  afterAll(async () => {
    await engine.handle?.close();
  });
  return engine;
}

/** A researcher's per-directive context: the brief, and fresh seen and readable URL sets. */
export function researcherContext(brief: string, readable: string[] = []) {
  return {
    brief,
    seenUrls: createSeenUrls(),
    readableUrls: createReadableUrls(readable),
    knownSources: createKnownSources(),
  };
}

/** A fresh run with the given directive topics, on the real drizzle store. */
export async function newRun(
  handle: DatabaseHandle,
  topics: string[],
  question = "What is being tested?",
): Promise<{ store: RunStore; directives: DirectiveRecord[] }> {
  const run = await createRun(handle.db, { ownerId: "tester", question, settings: {} });
  const store = createDbRunStore(handle.db, run.id);
  const { created } = await store.addDirectives(topics.map((topic) => ({ round: 0, topic })));
  return { store, directives: created };
}

type ToolCallSpec = [name: string, input: Record<string, unknown>];

let callSeq = 0;

/** Replies calling one of the researcher's four tools. */
export const searchCall = (query: string) => toolCalls([["web_search", { query }]]);
export const extractCall = (url: string) => toolCalls([["extract_content", { url }]]);
export const thinkCall = (reflection: string) => toolCalls([["think", { reflection }]]);
export const completeCall = (summary = "done") => toolCalls([["research_complete", { summary }]]);

/** A model reply calling the given tools (optionally with text). */
export function toolCalls(calls: ToolCallSpec[], text?: string): GenerateResult {
  return {
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...calls.map(([toolName, input]) => ({
        type: "tool-call" as const,
        toolCallId: `call-${++callSeq}`,
        toolName,
        input: JSON.stringify(input),
      })),
    ],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage: usageOf(20, 10),
    warnings: [],
  };
}

export function reply(text: string): GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: usageOf(20, 10),
    warnings: [],
  };
}

/** Everything the model was sent, as one string (for "did it see X" assertions). */
export function promptText(options: GenerateOptions): string {
  return JSON.stringify(options.prompt);
}

export function assistantTurns(options: GenerateOptions): number {
  return options.prompt.filter((m) => m.role === "assistant").length;
}

/** The text of the last tool-result message the model was sent. */
export function lastToolResults(options: GenerateOptions): string[] {
  const tool = [...options.prompt].reverse().find((m) => m.role === "tool");
  if (tool?.role !== "tool") return [];
  return tool.content.map((p) =>
    p.type === "tool-result" && (p.output.type === "text" || p.output.type === "error-text")
      ? p.output.value
      : JSON.stringify(p),
  );
}

export type ResearcherStep =
  | GenerateResult
  | ((options: GenerateOptions) => GenerateResult | Promise<GenerateResult>);

/**
 * A researcher model whose reply is chosen by the directive topic in the conversation and by how
 * many assistant turns it holds — not by call order, which concurrency does not fix.
 */
export function researcherModel(scripts: Record<string, ResearcherStep[]>): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "mock",
    modelId: "researcher",
    doGenerate: async (options) => {
      const text = promptText(options);
      const topic = Object.keys(scripts).find((t) => text.includes(t));
      if (topic === undefined) throw new Error("researcherModel: no script matches this conversation");
      const step = scripts[topic][assistantTurns(options)];
      if (step === undefined) throw new Error(`researcherModel: script for "${topic}" ran out`);
      return typeof step === "function" ? step(options) : step;
    },
  });
}

/** A model for roles a test does not expect to be called. */
export function unexpectedModel(role: string): MockLanguageModelV4 {
  return scriptedModel([], { modelId: role });
}

export function modelClient(models: Partial<Record<Role, MockLanguageModelV4>>) {
  const byId = (id: string) => models[id as Role] ?? unexpectedModel(id);
  return createModelClient({
    registry: createModelRegistry({
      env: {
        MODEL: "mock:supervisor",
        MODEL_RESEARCHER: "mock:researcher",
        MODEL_COMPRESSION: "mock:compression",
        MODEL_SUMMARIZATION: "mock:summarization",
        MODEL_SYNTHESIS: "mock:synthesis",
      },
      providerFactories: { mock: byId },
      // One attempt: a scripted failure is final, and no test waits on backoff.
      settings: { retry: { maxAttempts: 1 }, timeoutMs: 5_000 },
      sleep: async () => {},
    }),
  });
}

export function hit(
  url: string,
  title: string,
  snippet = `About ${title}`,
  extra: Partial<EngineSearchResult> = {},
) {
  return { url, title, snippet, provider: "fake", ...extra };
}

export interface FakeWeb {
  search: EngineDeps["search"];
  fetchDocument: EngineDeps["fetchDocument"];
  searches: string[];
  fetches: string[];
}

/** A fake page: its text, or its text and the links the fetcher found on it. */
export type FakePage = string | Error | { text: string; links: string[] };

/** Search answers by query (unknown queries find nothing); pages by URL (unknown URLs are refused). */
export function fakeWeb(opts: {
  results?: Record<string, EngineSearchResult[] | Error>;
  pages?: Record<string, FakePage>;
  fetchDelayMs?: number;
}): FakeWeb {
  const searches: string[] = [];
  const fetches: string[] = [];
  return {
    searches,
    fetches,
    async search(query): Promise<EngineSearchOutcome> {
      searches.push(query);
      const r = opts.results?.[query];
      if (r instanceof Error) throw r;
      return { results: r ?? [], errors: [] };
    },
    async fetchDocument(url, { signal } = {}): Promise<EngineDocument> {
      fetches.push(url);
      if (opts.fetchDelayMs) await new Promise((r) => setTimeout(r, opts.fetchDelayMs));
      signal?.throwIfAborted();
      const page = opts.pages?.[url];
      if (page instanceof Error) throw page;
      if (page === undefined) throw new Error(`refused: ${url} is not a test page`);
      const { text, links } = typeof page === "string" ? { text: page, links: undefined } : page;
      return { url, title: `Page ${url}`, text, contentType: "text/html", ...(links ? { links } : {}) };
    },
  };
}

export function makeDeps(opts: {
  store: RunStore;
  models: Partial<Record<Role, MockLanguageModelV4>>;
  web?: FakeWeb;
  config?: Partial<ResearchConfig>;
  signal?: AbortSignal;
}): { deps: EngineDeps; events: ResearchEvent[] } {
  const events: ResearchEvent[] = [];
  const web = opts.web ?? fakeWeb({});
  return {
    events,
    deps: {
      models: modelClient(opts.models),
      search: web.search,
      fetchDocument: web.fetchDocument,
      store: opts.store,
      events: { emit: async (e) => void events.push(e) },
      clock: { now: () => Date.parse("2025-03-01T12:00:00Z") },
      signal: opts.signal ?? new AbortController().signal,
      config: { ...defaultResearchConfig, ...opts.config },
    },
  };
}

export function eventsOf<T extends ResearchEvent["type"]>(events: ResearchEvent[], type: T) {
  return events.filter((e): e is Extract<ResearchEvent, { type: T }> => e.type === type);
}
