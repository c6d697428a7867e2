// Test-only wiring for a whole research run: the real orchestrator (lib/research/run.ts) and the
// real phases on in-memory PGlite, wired by the worker's own createEngineDeps
// (lib/jobs/engine-deps.ts) with the library as the only search provider over documents inserted
// for the run's owner, no network, and ONE mock model that answers every role by what it is asked —
// the schema name for structured calls, the offered tools for the researcher, the system prompt
// for text calls, doStream for the synthesis — never by call order, because researchers run
// concurrently. Never import from production code.
import { randomUUID } from "node:crypto";
import { MockLanguageModelV4 } from "ai/test";
import type { DatabaseHandle } from "../../db/client.ts";
import { insertLibraryDocument } from "../../db/queries/library.ts";
import { createRun } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import type { Run } from "../../db/schema.ts";
import { createModelRegistry } from "../../lib/ai/registry.ts";
import { createEngineDeps } from "../../lib/jobs/engine-deps.ts";
import type { ResearchEvent } from "../../lib/research/events.ts";
import { defaultPhases } from "../../lib/research/phases/index.ts";
import type { RunOutcome } from "../../lib/research/phases-contract.ts";
import { BRIEF_INSTRUCTIONS, CLARIFY_INSTRUCTIONS } from "../../lib/research/prompts/brief.ts";
import { compressionInstructions } from "../../lib/research/prompts/compression.ts";
import { DATA_TAG } from "../../lib/research/prompts/researcher.ts";
import { summarizationInstructions } from "../../lib/research/prompts/summarization.ts";
import { SUPERVISOR_INSTRUCTIONS } from "../../lib/research/prompts/supervisor.ts";
import { synthesisInstructions } from "../../lib/research/prompts/synthesis.ts";
import { runResearch } from "../../lib/research/run.ts";
import type { RunStore } from "../../lib/research/store.ts";
import { libraryDocumentUrl } from "../../lib/search/index.ts";
import type { GenerateOptions, GenerateResult } from "./ai-mocks.ts";
import { recordingEnd } from "./recording-store.ts";
import { chunks, contextLengthError, streamOf } from "./report-harness.ts";
import { reply, toolCalls } from "./researcher-harness.ts";

/** A document of the library; `ownerId` set means it belongs to someone else than the run's owner. */
export interface LibraryDoc {
  key: string;
  title: string;
  content: string;
  sourceUrl?: string;
  ownerId?: string;
}

export interface ScenarioDirective {
  topic: string;
  /** What the researcher searches for. */
  query: string;
  /** Title of the document the researcher reads, picked from its own search results. */
  read: string;
  /** A phrase of that document the researcher and the compression call must have seen. */
  evidence: string;
  /** The compressed findings; `cite` is the local number of the read document in compression's list. */
  findings(cite: number): string;
}

export interface NumberedSource {
  number: number;
  title: string;
  url: string;
}

export interface KnowledgeAnswer {
  items: {
    category: "finding" | "lesson" | "domain";
    content: string;
    sources: number[];
    confidence: number;
    needs_review: boolean;
  }[];
}

export interface Scenario {
  question: string;
  brief: string;
  docs: LibraryDoc[];
  /** Round 0's plan. */
  directives: ScenarioDirective[];
  /** The one follow-up the coverage assessment asks for; none means coverage is judged sufficient. */
  followUp?: ScenarioDirective;
  /** The report the synthesis model writes, from the numbered source list in its prompt. */
  report(sources: NumberedSource[]): string;
  /** The knowledge extractor's answer, from the numbered source list in its prompt. */
  knowledge(sources: NumberedSource[]): KnowledgeAnswer;
  /** Synthesis calls answered with OpenAI's context-length error before one succeeds. */
  synthesisFailures?: number;
  settings?: Record<string, unknown>;
}

export type CallKind =
  | "brief"
  | "clarification"
  | "plan"
  | "critique"
  | "revision"
  | "think"
  | "assessment"
  | "researcher"
  | "compression"
  | "summarization"
  | "synthesis"
  | "citation_check"
  | "knowledge"
  | "unknown";

export interface ModelCall {
  kind: CallKind;
  system: string;
  /** Every non-system message flattened: text parts, tool calls, tool results. */
  text: string;
  /** For a synthesis call that succeeded: the text it streamed. */
  answer?: string;
  /** For a synthesis call: whether it was answered with the context-length error. */
  failed?: boolean;
}

const SCHEMA_KINDS: Record<string, CallKind> = {
  clarification: "clarification",
  directive_plan: "plan",
  decomposition_critique: "critique",
  directive_revision: "revision",
  coverage_assessment: "assessment",
  citation_verdicts: "citation_check",
  knowledge_items: "knowledge",
};

const starts = (system: string, instructions: string) => system.startsWith(instructions.slice(0, 80));

function systemOf(options: GenerateOptions): string {
  return options.prompt
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
}

function partText(p: unknown): string {
  const part = p as { type: string; text?: string; input?: unknown; output?: { value?: unknown } };
  if (part.type === "text" || part.type === "reasoning") return part.text ?? "";
  if (part.type === "tool-call") return JSON.stringify(part.input);
  if (part.type === "tool-result") {
    const v = part.output?.value;
    return typeof v === "string" ? v : JSON.stringify(v);
  }
  return "";
}

function flatten(options: GenerateOptions): string {
  return options.prompt
    .filter((m) => m.role !== "system")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map(partText).join("\n")))
    .join("\n\n");
}

function firstUserText(options: GenerateOptions): string {
  const m = options.prompt.find((x) => x.role === "user");
  return m?.role === "user" ? m.content.map(partText).join("\n") : "";
}

function kindOf(options: GenerateOptions, streamed: boolean): CallKind | undefined {
  const system = systemOf(options);
  if (streamed) return starts(system, synthesisInstructions()) ? "synthesis" : undefined;
  if (options.responseFormat?.type === "json") return SCHEMA_KINDS[options.responseFormat.name ?? ""];
  if (options.tools?.some((t) => t.name === "web_search")) return "researcher";
  if (starts(system, BRIEF_INSTRUCTIONS)) return "brief";
  if (starts(system, CLARIFY_INSTRUCTIONS)) return "clarification";
  if (starts(system, SUPERVISOR_INSTRUCTIONS)) return "think";
  if (starts(system, compressionInstructions())) return "compression";
  if (starts(system, summarizationInstructions({ maxWords: 600 }))) return "summarization";
  return undefined;
}

/** `[N] Title — URL` lines of a numbered list, from `start` to the next blank line (or `end`). */
export function numberedList(text: string, start: string, end = "\n\n"): NumberedSource[] {
  const from = text.indexOf(start);
  if (from < 0) return [];
  const rest = text.slice(from + start.length);
  const stop = rest.indexOf(end);
  const block = stop < 0 ? rest : rest.slice(0, stop);
  return [...block.matchAll(/^\[(\d+)\] (.*) — (\S+)$/gm)].map((m) => ({
    number: Number(m[1]),
    title: m[2],
    url: m[3],
  }));
}

const SOURCE_LIST_BLOCK = `<${DATA_TAG} kind="source_list">\n`;
const BLOCK_END = `\n</${DATA_TAG}>`;

/** The hits of the researcher's last web_search, as it was shown them. */
function searchHits(options: GenerateOptions): { url: string; title: string }[] {
  let last = "";
  for (const m of options.prompt) {
    if (m.role !== "tool") continue;
    for (const p of m.content) {
      if (p.type === "tool-result" && p.toolName === "web_search" && p.output.type === "text")
        last = p.output.value;
    }
  }
  return [...last.matchAll(new RegExp(`^URL: (\\S+)\\n<${DATA_TAG}>\\nTitle: (.*)$`, "gm"))].map((m) => ({
    url: m[1],
    title: m[2],
  }));
}

function lastToolText(options: GenerateOptions): string {
  const tool = [...options.prompt].reverse().find((m) => m.role === "tool");
  return tool?.role === "tool" ? tool.content.map(partText).join("\n") : "";
}

const assistantTurns = (options: GenerateOptions) =>
  options.prompt.filter((m) => m.role === "assistant").length;

function json(value: unknown): GenerateResult {
  return reply(JSON.stringify(value));
}

/** A researcher that searches, reflects, reads the scenario's document from its results, reflects, completes. */
function researcherStep(all: ScenarioDirective[], options: GenerateOptions): GenerateResult {
  const task = firstUserText(options);
  const d = all.find((x) => task.includes(x.topic));
  if (!d) throw new Error(`researcher: no scenario directive in the task "${task.slice(0, 120)}"`);
  const turn = assistantTurns(options);
  switch (turn) {
    case 0:
      return toolCalls([["web_search", { query: d.query }]]);
    case 1: {
      const hits = searchHits(options);
      if (!hits.length) throw new Error(`researcher: the search "${d.query}" found nothing`);
      return toolCalls([
        [
          "think",
          {
            reflection: `${hits.length} results: ${hits.map((h) => h.title).join("; ")}. "${d.read}" is the most relevant; I will read it.`,
          },
        ],
      ]);
    }
    case 2: {
      const hit = searchHits(options).find((h) => h.title.includes(d.read));
      if (!hit) throw new Error(`researcher: "${d.read}" is not among the search results`);
      return toolCalls([["extract_content", { url: hit.url }]]);
    }
    case 3: {
      const page = lastToolText(options);
      if (!page.includes(d.evidence)) {
        throw new Error(`researcher: the page read lacks "${d.evidence}": ${page.slice(0, 200)}`);
      }
      return toolCalls([
        ["think", { reflection: `The page states: ${d.evidence}. That settles the topic.` }],
      ]);
    }
    case 4:
      return toolCalls([["research_complete", { summary: `Found: ${d.evidence}.` }]]);
    default:
      throw new Error(`researcher: unexpected turn ${turn} for "${d.query}"`);
  }
}

function compressionAnswer(all: ScenarioDirective[], options: GenerateOptions): GenerateResult {
  const prompt = flatten(options);
  const d = all.find((x) => prompt.includes(`Research topic:\n${x.topic}`));
  if (!d) throw new Error("compression: no scenario directive in the prompt");
  if (!prompt.includes(d.evidence)) throw new Error(`compression: the transcript lacks "${d.evidence}"`);
  const list = numberedList(prompt, "Numbered sources (cite these numbers):\n");
  const read = list.find((s) => s.title.includes(d.read));
  if (!read) throw new Error(`compression: "${d.read}" is not in the numbered source list`);
  return reply(
    [
      "## Findings",
      "",
      d.findings(read.number),
      "",
      "## Queries and tool calls made",
      "",
      `- Search "${d.query}": ${list.length} results`,
      `- Read ${read.url}`,
      "",
      "## Supervisor brief",
      "",
      `Covered: ${d.read}`,
      `Key findings: ${d.evidence}`,
      "Confidence: medium — one document from the library",
      "Gaps: none found",
    ].join("\n"),
  );
}

/** A judge that calls a sentence supported when every number in it occurs in the source's excerpt. */
function citationVerdicts(options: GenerateOptions): GenerateResult {
  const prompt = flatten(options);
  const items = [
    ...prompt.matchAll(
      new RegExp(
        `Item (\\d+)\\n<${DATA_TAG}[^>]*>\\nSentence: ([\\s\\S]*?)\\n\\nSource: [^\\n]*\\nExcerpts:\\n([\\s\\S]*?)\\n</${DATA_TAG}>`,
        "g",
      ),
    ),
  ];
  if (!items.length) throw new Error("citation check: no items in the prompt");
  const numbers = (s: string) => [...s.matchAll(/\d+(?:[.,]\d+)*/g)].map((m) => m[0]);
  return json({
    verdicts: items.map((m) => ({
      id: Number(m[1]),
      verdict: numbers(m[2]).every((n) => numbers(m[3]).includes(n)) ? "supported" : "unsupported",
      reason: "",
    })),
  });
}

export interface ScenarioModel {
  model: MockLanguageModelV4;
  calls: ModelCall[];
  /** Failures of the mock itself (an unexpected call, a prompt lacking what it should hold). */
  problems: string[];
}

export function scenarioModel(s: Scenario): ScenarioModel {
  const calls: ModelCall[] = [];
  const problems: string[] = [];
  const all = [...s.directives, ...(s.followUp ? [s.followUp] : [])];
  let synthesisCalls = 0;

  const generate = (kind: CallKind | undefined, options: GenerateOptions): GenerateResult => {
    switch (kind) {
      case "brief":
        return reply(s.brief);
      case "plan":
        return json({
          question_kind: "typical",
          compared_elements: [],
          directives: s.directives.map((d) => ({
            title: d.topic,
            topic: d.topic,
            perspective: "practical",
            evidence_needed: "measured figures",
            priority: "high",
          })),
        });
      case "critique": {
        const pass = { status: "PASS", note: "fine" };
        return json({
          redundancy: pass,
          coverage: pass,
          proportionality: pass,
          specificity: pass,
          verdict: "The plan is sound.",
        });
      }
      case "think":
        return reply(
          "Gap analysis: the round-0 topics are answered from library documents; nothing contradicts.",
        );
      case "assessment":
        return json({
          overall_coverage: s.followUp ? 0.6 : 0.9,
          directive_assessments: [],
          follow_up_queries: s.followUp
            ? [
                {
                  title: s.followUp.topic,
                  topic: s.followUp.topic,
                  perspective: "field trials",
                  evidence_needed: "measured figures",
                  priority: "high",
                  gap: "performance in cold weather is not covered",
                },
              ]
            : [],
          should_continue: Boolean(s.followUp),
          rationale: s.followUp ? "Cold-weather performance is missing." : "The evidence answers the brief.",
        });
      case "researcher":
        return researcherStep(all, options);
      case "compression":
        return compressionAnswer(all, options);
      case "citation_check":
        return citationVerdicts(options);
      case "knowledge":
        return json(s.knowledge(numberedList(flatten(options), SOURCE_LIST_BLOCK, BLOCK_END)));
      default:
        throw new Error(`scenario model: unexpected ${kind ?? "unrecognised"} call`);
    }
  };

  const model = new MockLanguageModelV4({
    provider: "mock",
    modelId: "m",
    doGenerate: async (options) => {
      const kind = kindOf(options, false);
      calls.push({ kind: kind ?? "unknown", system: systemOf(options), text: flatten(options) });
      try {
        return generate(kind, options);
      } catch (e) {
        problems.push(e instanceof Error ? e.message : String(e));
        throw e;
      }
    },
    doStream: async (options) => {
      const call: ModelCall = { kind: "synthesis", system: systemOf(options), text: flatten(options) };
      calls.push(call);
      if (kindOf(options, true) !== "synthesis") {
        problems.push("scenario model: a streamed call that is not the synthesis");
        throw new Error("unexpected streamed call");
      }
      if (synthesisCalls++ < (s.synthesisFailures ?? 0)) {
        call.failed = true;
        throw contextLengthError();
      }
      try {
        const sources = numberedList(call.text, SOURCE_LIST_BLOCK, BLOCK_END);
        call.answer = s.report(sources);
        return streamOf(chunks(call.answer));
      } catch (e) {
        problems.push(e instanceof Error ? e.message : String(e));
        throw e;
      }
    },
  });
  return { model, calls, problems };
}

export interface InsertedDoc {
  id: string;
  url: string;
  title: string;
}

export interface ScenarioRun {
  outcome: RunOutcome;
  run: Run;
  ownerId: string;
  store: RunStore;
  events: ResearchEvent[];
  /** The documents by key, with the URL the library cites them by. */
  docs: Record<string, InsertedDoc>;
  calls: ModelCall[];
  problems: string[];
  searches: string[];
  /** URLs the engine tried to fetch over the network (none should be: library hits carry their text). */
  fetches: string[];
  eventsOf<T extends ResearchEvent["type"]>(type: T): Extract<ResearchEvent, { type: T }>[];
  callsOf(kind: CallKind): ModelCall[];
}

/** Inserts the scenario's library, creates the run for a fresh owner and runs it to its end. */
export async function runScenario(handle: DatabaseHandle, s: Scenario): Promise<ScenarioRun> {
  const ownerId = `owner-${randomUUID()}`;
  const docs: Record<string, InsertedDoc> = {};
  for (const d of s.docs) {
    const row = await insertLibraryDocument(handle.db, {
      ownerId: d.ownerId ?? ownerId,
      title: d.title,
      sourceUrl: d.sourceUrl ?? null,
      mimeType: "text/plain",
      content: d.content,
    });
    docs[d.key] = { id: row.id, url: libraryDocumentUrl(row), title: d.title };
  }
  const run = await createRun(handle.db, {
    ownerId,
    question: s.question,
    settings: { maxSupervisionRounds: 1, ...s.settings },
  });
  return executeScenario(handle, s, run, docs);
}

/**
 * Runs an existing scenario run again, as the queue's next attempt would (e.g. after a crash): a
 * fresh attempt with fresh event and call records; the orchestrator skips what is stored.
 */
export function resumeScenario(
  handle: DatabaseHandle,
  s: Scenario,
  prior: ScenarioRun,
): Promise<ScenarioRun> {
  return executeScenario(handle, s, prior.run, prior.docs);
}

async function executeScenario(
  handle: DatabaseHandle,
  s: Scenario,
  run: Run,
  docs: Record<string, InsertedDoc>,
): Promise<ScenarioRun> {
  const ownerId = run.ownerId;
  const events: ResearchEvent[] = [];
  const store = recordingEnd(createDbRunStore(handle.db, run.id), events);
  const mock = scenarioModel(s);
  const controller = new AbortController();
  const searches: string[] = [];
  const fetches: string[] = [];
  // The worker's own wiring, with the library as the only search provider and no network.
  const deps = createEngineDeps({
    db: handle.db,
    run,
    store,
    events: { emit: async (e) => void events.push(e) },
    signal: controller.signal,
    env: { SEARCH_PROVIDERS: "library" },
    registry: createModelRegistry({
      env: { MODEL: "mock:m" },
      providerFactories: { mock: () => mock.model },
      // One attempt: a scripted failure is final, and no test waits on backoff.
      settings: { retry: { maxAttempts: 1 }, timeoutMs: 10_000 },
      sleep: async () => {},
    }),
    fetchDocument: async (url) => {
      fetches.push(url);
      throw new Error(`no network in this test: refused ${url}`);
    },
  });
  const search = deps.search;
  deps.search = (query, o) => {
    searches.push(query);
    return search(query, o);
  };
  const outcome = await runResearch(deps, defaultPhases);
  return {
    outcome,
    run,
    ownerId,
    store,
    events,
    docs,
    calls: mock.calls,
    problems: mock.problems,
    searches,
    fetches,
    eventsOf: (type) =>
      events.filter((e): e is Extract<ResearchEvent, { type: typeof type }> => e.type === type),
    callsOf: (kind) => mock.calls.filter((c) => c.kind === kind),
  };
}
