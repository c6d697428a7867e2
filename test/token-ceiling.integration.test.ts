// A run whose model has no price cannot be held to a cost budget: the server's token ceiling
// (RUN_MAX_TOKENS) stops it. Executed the way the worker executes a run (executeRun, with the
// worker's ceilings read from its environment) on in-memory PGlite, with one mock model — unpriced,
// as every model missing from MODEL_PRICING is — whose every call costs 1,000 tokens. The run ends
// as a budget stop does: failed with the reason, and a partial report from what was gathered.
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { listEventsAfter } from "../db/queries/events.ts";
import { insertLibraryDocument } from "../db/queries/library.ts";
import { getReport } from "../db/queries/research.ts";
import { createRun, getRun } from "../db/queries/runs.ts";
import { createModelRegistry } from "../lib/ai/registry.ts";
import type { UsageSnapshot } from "../lib/ai/usage.ts";
import type { RunBus } from "../lib/jobs/bus.ts";
import { executeRun } from "../lib/jobs/execute-run.ts";
import { usageOf } from "./support/ai-mocks.ts";
import { type Scenario, scenarioModel } from "./support/engine-harness.ts";
import { closeDatabaseWithBus, openDatabaseWithBus } from "./support/run-bus-db.ts";

const TITLE = "Ground temperature and heat pumps";

const SCENARIO: Scenario = {
  question: "How warm is the ground a few metres down, and why does it matter for heat pumps?",
  brief:
    "I want to know the ground temperature a few metres down and what it means for ground-source heat pumps.",
  docs: [
    {
      key: "ground",
      title: TITLE,
      content:
        "A few metres below the surface the ground stays at about 10 °C all year. Ground-source heat pumps draw on " +
        "that stable temperature, which keeps their coefficient of performance near 4 even in winter.",
    },
  ],
  directives: [
    {
      topic:
        "Temperature of the ground a few metres below the surface through the year, and its use by heat pumps.",
      query: "ground temperature heat pump",
      read: TITLE,
      evidence: "stays at about 10 °C all year",
      findings: (n) => `A few metres down the ground stays at about 10 °C all year [${n}].`,
    },
  ],
  report: () => "unused: the run stops before the report",
  knowledge: () => ({ items: [] }),
};

/** The scenario's model, but every call reports 800 input and 200 output tokens. */
function heavyModel(inner: MockLanguageModelV4) {
  return new MockLanguageModelV4({
    provider: "mock",
    modelId: "m",
    doGenerate: async (o) => ({ ...(await inner.doGenerate(o)), usage: usageOf(800, 200) }),
    doStream: (o) => inner.doStream(o),
  });
}

let h: DatabaseHandle;
let bus: RunBus;
beforeAll(async () => {
  ({ h, bus } = await openDatabaseWithBus());
});
afterAll(() => closeDatabaseWithBus(h, bus));

describe("the token ceiling for unpriced models", () => {
  it("stops a run without a budget at RUN_MAX_TOKENS, with a partial report of what was gathered", async () => {
    const ownerId = "token-ceiling";
    for (const d of SCENARIO.docs) {
      await insertLibraryDocument(h.db, {
        ownerId,
        title: d.title,
        sourceUrl: null,
        mimeType: "text/plain",
        content: d.content,
      });
    }
    const run = await createRun(h.db, {
      ownerId,
      question: SCENARIO.question,
      settings: { maxSupervisionRounds: 1 },
    });
    const mock = scenarioModel(SCENARIO);
    const outcome = await executeRun({
      handle: h,
      bus,
      runId: run.id,
      workerSignal: new AbortController().signal,
      // Brief, plan, critique, five researcher turns and the compression: 9,000 tokens, then no more.
      env: { SEARCH_PROVIDERS: "library", RUN_MAX_TOKENS: "9000" },
      registry: createModelRegistry({
        env: { MODEL: "mock:m" },
        providerFactories: { mock: () => heavyModel(mock.model) },
        settings: { retry: { maxAttempts: 1 }, timeoutMs: 10_000 },
        sleep: async () => {},
      }),
    });

    expect(mock.problems).toEqual([]);
    expect(mock.calls.map((c) => c.kind)).toEqual([
      "brief",
      "plan",
      "critique",
      "researcher",
      "researcher",
      "researcher",
      "researcher",
      "researcher",
      "compression",
    ]);
    expect(outcome).toMatchObject({ status: "failed", partial: true });
    const row = await getRun(h.db, run.id);
    expect(row?.status).toBe("failed");
    expect(row?.error).toMatch(
      /budget was exhausted: .*9000 tokens of models without a price used of the server's 9000-token ceiling/,
    );
    const usage = row?.usage as UsageSnapshot;
    expect(usage.total).toMatchObject({
      totalTokens: 9000,
      unpricedTokens: 9000,
      unpricedCalls: 9,
      costUsd: 0,
    });

    const report = await getReport(h.db, run.id);
    expect(report?.partial).toBe(true);
    expect(report?.markdown).toContain("stays at about 10 °C all year");
    expect(report?.markdown).toMatch(/stopped before the report could be written/);
    const events = await listEventsAfter(h.db, run.id, 0);
    expect(events.at(-1)).toMatchObject({ type: "run.failed", payload: { partial: true } });
  });
});
