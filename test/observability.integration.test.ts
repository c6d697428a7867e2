// Traces, metrics and logs of a whole run (issue 16's acceptance): a run executed by the worker's
// own executeRun (real orchestrator, phases, database store and library search; one mock model
// for every role) under an in-memory OpenTelemetry exporter and a captured logger. Then the span
// tree (run → phases → directives → model calls with tokens and the role), that no prompt text is
// recorded by default, that every engine line carries the run id, and what /api/metrics answers
// to whom — the run's model calls and cost included.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertLibraryDocument } from "../db/queries/library.ts";
import { createRun } from "../db/queries/runs.ts";
import { createModelRegistry } from "../lib/ai/registry.ts";
import { executeRun } from "../lib/jobs/execute-run.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { libraryDocumentUrl } from "../lib/search/index.ts";
import { call, type Person, signUp, signUpInvited, useFreshAppDatabase } from "./support/app-session.ts";
import { type CapturedLogs, captureLogs } from "./support/capture-logs.ts";
import { type NumberedSource, type Scenario, scenarioModel } from "./support/engine-harness.ts";
import { type InMemoryTracing, installInMemoryTracing, parentIdOf } from "./support/tracing.ts";

type Handler = Parameters<typeof call>[0];

const PANELS = "Solar panel output in winter";
const BATTERY = "Home battery storage sizing";
const QUESTION =
  "How much do rooftop solar panels produce in winter, and how big a home battery is worth buying?";
const METRICS_TOKEN = "metrics-scraper-token-0123456789";

const numbered = (list: NumberedSource[], title: string) => {
  const s = list.find((x) => x.title === title);
  if (!s) throw new Error(`"${title}" is not in the numbered source list`);
  return s;
};

const SOLAR: Scenario = {
  question: QUESTION,
  brief:
    "I want to know the winter output of a typical rooftop solar installation and the battery size that pays off.",
  docs: [
    {
      key: "panels",
      title: PANELS,
      content:
        "A 5 kW rooftop solar installation produces about 4 kilowatt-hours per day in December in central Europe, " +
        "roughly a fifth of its June output.",
    },
    {
      key: "battery",
      title: BATTERY,
      content:
        "For a household using 10 kilowatt-hours per day, a home battery of 5 to 7 kilowatt-hours covers the evening " +
        "peak; larger batteries rarely pay back within their warranty.",
    },
  ],
  directives: [
    {
      topic:
        "Winter electricity output of rooftop solar panels in central Europe, in kilowatt-hours per day.",
      query: "solar panel output winter",
      read: PANELS,
      evidence: "about 4 kilowatt-hours per day in December",
      findings: (n) => `A 5 kW installation produces about 4 kilowatt-hours per day in December [${n}].`,
    },
    {
      topic: "Home battery sizing for a household with rooftop solar: which capacity pays back.",
      query: "home battery storage sizing",
      read: BATTERY,
      evidence: "5 to 7 kilowatt-hours covers the evening peak",
      findings: (n) => `A battery of 5 to 7 kilowatt-hours covers the evening peak [${n}].`,
    },
  ],
  report: (list) => {
    const p = numbered(list, PANELS);
    const b = numbered(list, BATTERY);
    return [
      "# Solar panels in winter and home batteries",
      "",
      `A 5 kW installation produces about 4 kilowatt-hours per day in December [${p.number}].`,
      "",
      `A battery of 5 to 7 kilowatt-hours covers the evening peak [${b.number}].`,
    ].join("\n");
  },
  knowledge: () => ({ items: [] }),
};

describe("observability of a run", () => {
  let tracing: InMemoryTracing;
  let stopApp: () => Promise<void>;
  let alice: Person;
  let bob: Person;
  let runId: string;
  let metricsRoute: Handler;
  let logs: CapturedLogs;
  const problems: string[] = [];

  beforeAll(async () => {
    tracing = installInMemoryTracing();
    logs = captureLogs();
    stopApp = await useFreshAppDatabase("pglite");
    process.env.METRICS_TOKEN = METRICS_TOKEN;
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
    metricsRoute = (await import("../app/api/metrics/route.ts")).GET as Handler;

    const { handle, bus } = await getRuntime();
    for (const d of SOLAR.docs) {
      const row = await insertLibraryDocument(handle.db, {
        ownerId: alice.userId,
        title: d.title,
        sourceUrl: null,
        mimeType: "text/plain",
        content: d.content,
      });
      expect(libraryDocumentUrl(row)).toContain(row.id);
    }
    const run = await createRun(handle.db, {
      ownerId: alice.userId,
      question: SOLAR.question,
      settings: { maxSupervisionRounds: 1 },
    });
    runId = run.id;
    const mock = scenarioModel(SOLAR);
    const registry = createModelRegistry({
      env: { MODEL: "mock:m" },
      providerFactories: { mock: () => mock.model },
      // Priced, so the run has a cost to show: $1 per million input tokens, $2 per million output.
      pricing: { "mock:m": { input: 1, output: 2 } },
      settings: { retry: { maxAttempts: 1 }, timeoutMs: 10_000 },
      sleep: async () => {},
    });
    const outcome = await executeRun({
      handle,
      bus,
      runId,
      workerSignal: new AbortController().signal,
      env: { SEARCH_PROVIDERS: "library" },
      registry,
    });
    problems.push(...mock.problems);
    expect(outcome.status).toBe("completed");
  }, 120_000);

  afterAll(async () => {
    delete process.env.METRICS_TOKEN;
    logs.restore();
    await tracing.uninstall();
    await stopApp();
  });

  it("the mock model saw every call it expected", () => {
    expect(problems).toEqual([]);
  });

  it("records the span tree run → phases → directives → model calls, with tokens and the role", () => {
    const spans = tracing.spans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const parentOf = (s: (typeof spans)[number]) => byId.get(parentIdOf(s) ?? "");
    const runs = spans.filter((s) => s.name === "run");
    expect(runs).toHaveLength(1);
    const run = runs[0];
    expect(run.attributes["run.id"]).toBe(runId);
    expect(run.attributes["run.outcome"]).toBe("completed");
    expect(parentIdOf(run)).toBeUndefined();

    const phases = spans.filter((s) => s.name.startsWith("phase "));
    expect(phases.map((s) => s.name).sort()).toEqual(
      ["phase brief", "phase knowledge", "phase supervision", "phase synthesis"].sort(),
    );
    for (const p of phases) expect(parentOf(p)).toBe(run);

    const supervision = phases.find((s) => s.name === "phase supervision");
    const directives = spans.filter((s) => s.name === "directive");
    expect(directives).toHaveLength(2);
    for (const d of directives) {
      expect(parentOf(d)).toBe(supervision);
      expect(typeof d.attributes["directive.id"]).toBe("string");
    }

    // The researcher's model calls sit under their directive, with tokens, cost, role and model.
    const researcherCalls = spans.filter((s) => s.name === "model researcher");
    expect(researcherCalls.length).toBeGreaterThanOrEqual(2);
    for (const c of researcherCalls) {
      expect(directives).toContain(parentOf(c));
      expect(c.attributes["deep_research.role"]).toBe("researcher");
      expect(c.attributes["gen_ai.request.model"]).toBe("mock:m");
      expect(c.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
      expect(c.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      expect(c.attributes["deep_research.cost_usd"]).toBeGreaterThan(0);
    }
    // The brief is written by the supervisor role, in the brief phase.
    const brief = phases.find((s) => s.name === "phase brief");
    const briefCalls = spans.filter((s) => parentOf(s) === brief);
    expect(briefCalls.map((s) => s.name)).toEqual(["model supervisor"]);
    expect(briefCalls[0].attributes["deep_research.role"]).toBe("supervisor");

    // Under each model call, the AI SDK's generation and its provider call (gen_ai.chat) with tokens.
    const generation = spans.find((s) => s.name === "ai.generateText" && parentOf(s) === researcherCalls[0]);
    expect(generation).toBeDefined();
    const chat = spans.find((s) => s.name === "gen_ai.chat" && parentOf(s) === generation);
    expect(chat?.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    expect(chat?.attributes["gen_ai.system"]).toBe("mock");
    // The synthesis streams: its generation is ai.streamText.
    const synthesis = spans.find((s) => s.name === "model synthesis");
    expect(spans.some((s) => s.name === "ai.streamText" && parentOf(s) === synthesis)).toBe(true);

    // Searches are spans under their directive's model call or the directive.
    const searches = spans.filter((s) => s.name === "search");
    expect(searches.length).toBeGreaterThanOrEqual(2);
    for (const s of searches) expect(s.attributes["search.provider"]).toBe("library");
  });

  it("records no prompt, answer or fetched text by default", () => {
    const attributes = tracing.spans().flatMap((s) => Object.entries(s.attributes));
    const keys = attributes.map(([k]) => k);
    expect(keys).not.toContain("gen_ai.prompt");
    expect(keys).not.toContain("gen_ai.completion");
    expect(keys).not.toContain("ai.prompt.messages");
    const text = JSON.stringify(attributes);
    expect(text).not.toContain("rooftop solar");
    expect(text).not.toContain("kilowatt-hours");
  });

  it("logs the engine's lines with the run id, phase and directive", () => {
    const engine = logs.lines.filter((l) => l.component === "engine");
    expect(engine.length).toBeGreaterThan(0);
    for (const l of engine) expect(l.runId).toBe(runId);
    const phases = engine.filter((l) => l.msg === "phase completed").map((l) => l.phase);
    expect(phases).toEqual(expect.arrayContaining(["brief", "supervision", "synthesis", "knowledge"]));
    const directiveLines = engine.filter((l) => l.msg === "directive research finished");
    expect(directiveLines).toHaveLength(2);
    for (const l of directiveLines) {
      expect(l.phase).toBe("supervision");
      expect(typeof l.directiveId).toBe("string");
    }
  });

  it("/api/metrics refuses anonymous callers (401) and hides itself from non-admins (404)", async () => {
    const anonymous = await call(metricsRoute, "GET", "/api/metrics");
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("unauthorized");
    const nonAdmin = await call(metricsRoute, "GET", "/api/metrics", { who: bob });
    expect(nonAdmin.status).toBe(404);
    const wrong = await call(metricsRoute, "GET", "/api/metrics", {
      headers: { authorization: "Bearer not-the-metrics-token" },
    });
    expect(wrong.status).toBe(401);
  });

  it("/api/metrics shows an admin the run's model calls, tokens and cost, and the database's figures", async () => {
    const res = await call(metricsRoute, "GET", "/api/metrics", { who: alice });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await res.text();
    const value = (series: string) => {
      const line = body.split("\n").find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    const researcherCalls = tracingCount("model researcher");
    expect(value('deep_research_model_calls_total{provider="mock",role="researcher",outcome="ok"}')).toBe(
      researcherCalls,
    );
    expect(
      value('deep_research_model_tokens_total{provider="mock",role="researcher",kind="input"}'),
    ).toBeGreaterThan(0);
    expect(value('deep_research_model_cost_usd_total{provider="mock",role="synthesis"}')).toBeGreaterThan(0);
    expect(value('deep_research_model_call_duration_seconds_count{provider="mock",role="synthesis"}')).toBe(
      tracingCount("model synthesis"),
    );
    expect(value('deep_research_search_requests_total{provider="library",outcome="ok"}')).toBeGreaterThan(0);
    expect(value('deep_research_phase_duration_seconds_count{phase="supervision"}')).toBe(1);
    expect(value('deep_research_runs{status="completed"}')).toBe(1);
    expect(value("deep_research_runs_cost_usd")).toBeGreaterThan(0);
    expect(body).toContain("nodejs_eventloop_lag_seconds");
    expect(body).toContain("deep_research_sse_connections 0");
  });

  it("/api/metrics accepts the scraper's METRICS_TOKEN", async () => {
    const res = await call(metricsRoute, "GET", "/api/metrics", {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("deep_research_model_calls_total");
  });

  function tracingCount(name: string): number {
    return tracing.spans().filter((s) => s.name === name).length;
  }
});
