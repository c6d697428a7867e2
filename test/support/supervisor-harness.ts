// Test-only wiring for the supervisor: a real RunStore on in-memory PGlite, a supervisor mock model
// that answers by what is asked (schema name for structured calls, instructions for text calls —
// never by call order), a fake directive executor that stores sources the way the real one does,
// and an event-collecting sink. Never import from production code.
import { MockLanguageModelV4 } from "ai/test";
import type { DatabaseHandle } from "../../db/client.ts";
import { createRun } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { createModelClient } from "../../lib/ai/client.ts";
import { createModelRegistry } from "../../lib/ai/registry.ts";
import { defaultResearchConfig, type ResearchConfig } from "../../lib/research/config.ts";
import type { EngineDeps } from "../../lib/research/deps.ts";
import type { ResearchEvent } from "../../lib/research/events.ts";
import type { DirectiveOutcome, ExecuteDirective } from "../../lib/research/phases/supervision/supervise.ts";
import { BRIEF_INSTRUCTIONS, CLARIFY_INSTRUCTIONS } from "../../lib/research/prompts/brief.ts";
import type { DirectiveRecord, RunStore } from "../../lib/research/store.ts";
import type { DirectivePriority, QualityTier } from "../../lib/research/vocabulary.ts";
import { type GenerateOptions, type GenerateResult, textResult } from "./ai-mocks.ts";
import { openMigratedPglite } from "./db-template.ts";

export async function openEngineDb(): Promise<DatabaseHandle> {
  const handle = await openMigratedPglite();
  return handle;
}

export async function newRunStore(
  handle: DatabaseHandle,
  question = "What is being tested?",
): Promise<RunStore> {
  const run = await createRun(handle.db, { ownerId: "tester", question, settings: {} });
  return createDbRunStore(handle.db, run.id);
}

export type CallKind = "plan" | "critique" | "revision" | "assessment" | "clarification" | "think" | "brief";

const SCHEMA_KINDS: Record<string, CallKind> = {
  directive_plan: "plan",
  decomposition_critique: "critique",
  directive_revision: "revision",
  coverage_assessment: "assessment",
  clarification: "clarification",
};

export interface SupervisorCall {
  kind: CallKind;
  /** System prompt and every message, flattened: for "did the model see X" assertions. */
  text: string;
  /** The last user message only: the request of this call. */
  request: string;
  options: GenerateOptions;
}

/** An answer: an object (sent as JSON), a string (sent as text), an Error (thrown), or a GenerateResult. */
export type Answer = unknown;
export type Handler = (call: SupervisorCall, nth: number) => Answer | Promise<Answer>;

function flatten(options: GenerateOptions): { text: string; request: string; system: string } {
  const parts: string[] = [];
  let system = "";
  let request = "";
  for (const m of options.prompt) {
    if (m.role === "system") {
      system += m.content;
      parts.push(m.content);
      continue;
    }
    const text = m.content.map((p) => (p.type === "text" ? p.text : JSON.stringify(p))).join("\n");
    parts.push(text);
    if (m.role === "user") request = text;
  }
  return { text: parts.join("\n\n"), request, system };
}

function toResult(answer: Answer): GenerateResult {
  if (answer && typeof answer === "object" && "content" in answer && "finishReason" in answer) {
    return answer as GenerateResult;
  }
  return textResult(typeof answer === "string" ? answer : JSON.stringify(answer));
}

/** The supervisor-role model: each kind of call goes to its handler; an unhandled kind fails the test. */
export function supervisorModel(handlers: Partial<Record<CallKind, Handler>>) {
  const calls: SupervisorCall[] = [];
  const counts = new Map<CallKind, number>();
  const model = new MockLanguageModelV4({
    provider: "mock",
    modelId: "supervisor",
    doGenerate: async (options) => {
      const { text, request, system } = flatten(options);
      const schema = options.responseFormat?.type === "json" ? options.responseFormat.name : undefined;
      const kind: CallKind | undefined = schema
        ? SCHEMA_KINDS[schema]
        : system.includes(BRIEF_INSTRUCTIONS.slice(0, 60))
          ? "brief"
          : system.includes(CLARIFY_INSTRUCTIONS.slice(0, 60))
            ? "clarification"
            : "think";
      if (!kind) throw new Error(`supervisorModel: unknown schema ${schema}`);
      const call = { kind, text, request, options };
      calls.push(call);
      const nth = counts.get(kind) ?? 0;
      counts.set(kind, nth + 1);
      const handler = handlers[kind];
      if (!handler) throw new Error(`supervisorModel: no handler for a ${kind} call`);
      const answer = await handler(call, nth);
      if (answer instanceof Error) throw answer;
      return toResult(answer);
    },
  });
  const of = (kind: CallKind) => calls.filter((c) => c.kind === kind);
  return { model, calls, of };
}

export function modelClient(model: MockLanguageModelV4) {
  return createModelClient({
    registry: createModelRegistry({
      env: { MODEL: "mock:m" },
      providerFactories: { mock: () => model },
      // One attempt: a scripted failure is final, and no test waits on backoff.
      settings: { retry: { maxAttempts: 1 }, timeoutMs: 5_000 },
      sleep: async () => {},
    }),
  });
}

export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function testClock(start = Date.parse("2025-03-01T12:00:00Z")): TestClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

export function makeDeps(opts: {
  store: RunStore;
  model: MockLanguageModelV4;
  config?: Partial<ResearchConfig>;
  signal?: AbortSignal;
  clock?: TestClock;
}): { deps: EngineDeps; events: ResearchEvent[]; clock: TestClock } {
  const events: ResearchEvent[] = [];
  const clock = opts.clock ?? testClock();
  return {
    events,
    clock,
    deps: {
      models: modelClient(opts.model),
      search: async () => {
        throw new Error("the supervisor does not search");
      },
      fetchDocument: async () => {
        throw new Error("the supervisor does not fetch");
      },
      store: opts.store,
      events: { emit: async (e) => void events.push(e) },
      clock,
      signal: opts.signal ?? new AbortController().signal,
      config: { ...defaultResearchConfig, ...opts.config },
    },
  };
}

export function eventsOf<T extends ResearchEvent["type"]>(events: ResearchEvent[], type: T) {
  return events.filter((e): e is Extract<ResearchEvent, { type: T }> => e.type === type);
}

export interface FakeSource {
  url: string;
  quality?: QualityTier;
  /** False: a search hit the researcher never opened (default: read). */
  read?: boolean;
}

/** What the fake researcher does with a directive: the sources it finds, or how it fails. */
export type FakeResearch =
  | { sources: FakeSource[]; findings?: string }
  | { fail: string }
  | { throws: Error };

/**
 * A directive executor that behaves like the real one towards the store: marks the directive
 * running, stores its sources (linked to the directive), saves a researcher result and marks it
 * done — or failed. It records the order directives started in and the peak concurrency.
 */
export function fakeExecutor(
  store: RunStore,
  research: (d: DirectiveRecord, nth: number) => FakeResearch,
  opts: { delayMs?: number; onStart?: (d: DirectiveRecord) => Promise<void> | void } = {},
) {
  const started: DirectiveRecord[] = [];
  let inFlight = 0;
  let peak = 0;
  const execute: ExecuteDirective = async (d): Promise<DirectiveOutcome> => {
    const nth = started.length;
    started.push(d);
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      await opts.onStart?.(d);
      await store.setDirectiveStatus(d.id, "running");
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      const plan = research(d, nth);
      if ("throws" in plan) throw plan.throws;
      if ("fail" in plan) {
        await store.setDirectiveStatus(d.id, "failed", plan.fail);
        return { directiveId: d.id, findings: "", sourceIds: [], ok: false };
      }
      const sourceIds: string[] = [];
      for (const s of plan.sources) {
        const url = new URL(s.url);
        const { source } = await store.addSource(d.id, {
          url: s.url,
          normalizedUrl: s.url.toLowerCase(),
          title: `Page at ${url.hostname}${url.pathname}`,
          domain: url.hostname.replace(/^www\./, ""),
          provider: "fake",
          quality: s.quality ?? "UNKNOWN",
          content: `Text of ${s.url}`,
        });
        if (s.read !== false) await store.markSourceRead(d.id, source.id);
        sourceIds.push(source.id);
      }
      const findings =
        plan.findings ?? `Findings for "${d.topic.slice(0, 40)}" from ${sourceIds.length} sources [1].`;
      await store.saveResearcherResult({
        directiveId: d.id,
        messages: [],
        compressedFindings: findings,
        rawNotes: null,
        toolCalls: plan.sources.length,
        stopReason: "complete",
      });
      await store.setDirectiveStatus(d.id, "done");
      return { directiveId: d.id, findings, sourceIds, ok: true };
    } finally {
      inFlight--;
    }
  };
  return {
    execute,
    started,
    get peak() {
      return peak;
    },
  };
}

/** A directive draft as the model would send it. */
export function draft(topic: string, priority: DirectivePriority = "normal") {
  return {
    title: topic.slice(0, 40),
    topic,
    perspective: "general",
    evidence_needed: "primary sources",
    priority,
  };
}

export function plan(
  kind: "simple_factual" | "comparison" | "typical",
  topics: string[],
  compared: string[] = [],
) {
  return { question_kind: kind, compared_elements: compared, directives: topics.map((t) => draft(t)) };
}

const pass = (note = "fine") => ({ status: "PASS", note });
export function critique(
  issues: Partial<Record<"redundancy" | "coverage" | "proportionality" | "specificity", string>> = {},
) {
  const c = (k: keyof typeof issues) => (issues[k] ? { status: "ISSUE", note: issues[k] } : pass());
  return {
    redundancy: c("redundancy"),
    coverage: c("coverage"),
    proportionality: c("proportionality"),
    specificity: c("specificity"),
    verdict: Object.keys(issues).length ? "needs revision" : "the plan is sound",
  };
}

export function assessment(opts: {
  overall?: number;
  shouldContinue: boolean;
  followUps?: (string | { topic: string; priority?: DirectivePriority })[];
  rationale?: string;
}) {
  return {
    overall_coverage: opts.overall ?? (opts.shouldContinue ? 0.5 : 0.9),
    directive_assessments: [],
    follow_up_queries: (opts.followUps ?? []).map((f) => {
      const x = typeof f === "string" ? { topic: f } : f;
      return { ...draft(x.topic, x.priority ?? "normal"), gap: "missing detail" };
    }),
    should_continue: opts.shouldContinue,
    rationale: opts.rationale ?? (opts.shouldContinue ? "gaps remain" : "the evidence answers the brief"),
  };
}

/** n distinct sources on distinct domains for a directive (prefix keeps URLs unique per directive). */
export function sourcesFor(prefix: string, n: number, quality: FakeSource["quality"] = "HIGH"): FakeSource[] {
  return Array.from({ length: n }, (_, i) => ({ url: `https://${prefix}-${i}.example.org/page`, quality }));
}
