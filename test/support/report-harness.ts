// Test-only wiring for the report phases: a real RunStore on in-memory PGlite, per-role mock models
// (synthesis streams, the judge and the knowledge extractor answer structured calls), and an
// event-collecting sink. Never import from production code.
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import type { DatabaseHandle } from "../../db/client.ts";
import { createRun } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { createModelClient } from "../../lib/ai/client.ts";
import { createModelRegistry } from "../../lib/ai/registry.ts";
import { defaultResearchConfig } from "../../lib/research/config.ts";
import type { EngineDeps } from "../../lib/research/deps.ts";
import type { ResearchEvent } from "../../lib/research/events.ts";
import type { DirectiveRecord, NewSourceInput, RunStore, SourceRecord } from "../../lib/research/store.ts";
import { apiError, type GenerateOptions, type GenerateResult, usageOf } from "./ai-mocks.ts";
import { openMigratedPglite } from "./db-template.ts";

/** What a mock model receives (the same for doGenerate and doStream). */
export type CallOptions = GenerateOptions;

export async function openReportDb(): Promise<DatabaseHandle> {
  const handle = await openMigratedPglite();
  return handle;
}

/** The system prompt and the user text of a call, for "what did the model see" assertions. */
export function promptParts(options: CallOptions): { system: string; user: string } {
  let system = "";
  const user: string[] = [];
  for (const m of options.prompt) {
    if (m.role === "system") system += m.content;
    else if (m.role === "user") {
      for (const p of m.content) if (p.type === "text") user.push(p.text);
    }
  }
  return { system, user: user.join("\n") };
}

/** A stream answer made of the given pieces. */
export function streamOf(pieces: string[]) {
  return {
    stream: convertArrayToReadableStream([
      { type: "stream-start" as const, warnings: [] },
      { type: "text-start" as const, id: "t1" },
      ...pieces.map((delta) => ({ type: "text-delta" as const, id: "t1", delta })),
      { type: "text-end" as const, id: "t1" },
      {
        type: "finish" as const,
        finishReason: { unified: "stop" as const, raw: "stop" },
        usage: usageOf(100, 50),
      },
    ]),
  };
}

/** A text reply split into a few deltas, as a provider would stream it. */
export function chunks(text: string, size = 40): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The synthesis model: `reply` decides each answer (a text to stream, or an Error to throw). */
export function synthesisModel(reply: (options: CallOptions, nth: number) => string | Error) {
  let n = 0;
  return new MockLanguageModelV4({
    provider: "mock",
    modelId: "synthesis",
    doStream: async (options) => {
      const answer = reply(options, n++);
      if (answer instanceof Error) throw answer;
      return streamOf(chunks(answer));
    },
  });
}

/** A structured-output model: `reply` returns the object to answer with, or an Error to throw. */
export function objectModel(modelId: string, reply: (options: CallOptions, nth: number) => unknown) {
  let n = 0;
  return new MockLanguageModelV4({
    provider: "mock",
    modelId,
    doGenerate: async (options): Promise<GenerateResult> => {
      const answer = reply(options, n++);
      if (answer instanceof Error) throw answer;
      const text = typeof answer === "string" ? answer : JSON.stringify(answer);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usageOf(20, 10),
        warnings: [],
      };
    },
  });
}

/** OpenAI's context-length error, as the API returns it (a 400 with code context_length_exceeded). */
export function contextLengthError(): Error {
  return apiError({
    status: 400,
    body: {
      error: {
        message:
          "Your input exceeds the context window of this model. Please adjust your input and try again.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    },
  });
}

export interface ReportHarness {
  deps: EngineDeps;
  store: RunStore;
  events: ResearchEvent[];
  runId: string;
  abort: AbortController;
  /** Adds a directive and returns it. */
  directive(
    topic: string,
    opts?: { priority?: DirectiveRecord["priority"]; round?: number },
  ): Promise<DirectiveRecord>;
  /** Stores a source for a directive (content null = a search hit never read). */
  source(directiveId: string, input: Partial<NewSourceInput> & { url: string }): Promise<SourceRecord>;
  eventsOf<T extends ResearchEvent["type"]>(type: T): Extract<ResearchEvent, { type: T }>[];
}

/**
 * A run on `handle` with mock models by role: synthesis → models.synthesis, summarization →
 * models.judge, supervisor → models.supervisor. A role without a model fails its call loudly.
 */
export async function reportHarness(
  handle: DatabaseHandle,
  models: { synthesis?: MockLanguageModelV4; judge?: MockLanguageModelV4; supervisor?: MockLanguageModelV4 },
  question = "How do heat pumps compare with gas boilers?",
): Promise<ReportHarness> {
  const run = await createRun(handle.db, { ownerId: "tester", question, settings: {} });
  const store = createDbRunStore(handle.db, run.id);
  const events: ResearchEvent[] = [];
  const byId: Record<string, MockLanguageModelV4 | undefined> = {
    synthesis: models.synthesis,
    judge: models.judge,
    supervisor: models.supervisor,
  };
  const registry = createModelRegistry({
    env: {
      MODEL: "mock:none",
      MODEL_SYNTHESIS: "mock:synthesis",
      MODEL_SUMMARIZATION: "mock:judge",
      MODEL_SUPERVISOR: "mock:supervisor",
    },
    providerFactories: {
      mock: (id) => {
        const m = byId[id];
        if (!m) throw new Error(`no mock model "${id}" in this test`);
        return m;
      },
    },
    settings: { timeoutMs: 5_000, retry: { maxAttempts: 1 } },
    sleep: async () => {},
  });
  const abort = new AbortController();
  const deps: EngineDeps = {
    models: createModelClient({ registry, signal: abort.signal }),
    search: async () => {
      throw new Error("search is not used by the report phases");
    },
    fetchDocument: async () => {
      throw new Error("fetch is not used by the report phases");
    },
    store,
    events: {
      emit: async (e) => {
        events.push(e);
      },
    },
    clock: { now: () => 0 },
    signal: abort.signal,
    config: defaultResearchConfig,
  };
  return {
    deps,
    store,
    events,
    runId: run.id,
    abort,
    async directive(topic, opts = {}) {
      const { created } = await store.addDirectives([
        { topic, round: opts.round ?? 0, priority: opts.priority ?? "normal" },
      ]);
      return created[0];
    },
    async source(directiveId, input) {
      const url = new URL(input.url);
      const { source } = await store.addSource(directiveId, {
        url: input.url,
        normalizedUrl: input.normalizedUrl ?? input.url,
        title: input.title ?? url.hostname,
        domain: input.domain ?? url.hostname,
        provider: input.provider ?? "test",
        quality: input.quality ?? "MEDIUM",
        snippet: input.snippet ?? null,
        content: input.content ?? null,
      });
      return source;
    },
    eventsOf(type) {
      return events.filter((e): e is Extract<ResearchEvent, { type: typeof type }> => e.type === type);
    },
  };
}
