// A run that meets a configuration gap inside the worker (a search provider without its key, a
// model override without its provider's key) fails at once with a reason naming the variable to
// set: it is not retried by the queue, and no phase swallows it into a fallback.
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { listEventsAfter } from "../db/queries/events.ts";
import { createRun, getRun } from "../db/queries/runs.ts";
import { createModelRegistry } from "../lib/ai/registry.ts";
import type { BusMessage, RunBus } from "../lib/jobs/bus.ts";
import { executeRun } from "../lib/jobs/execute-run.ts";
import { runScenario, type Scenario } from "./support/engine-harness.ts";
import { closeDatabaseWithBus, openDatabaseWithBus } from "./support/run-bus-db.ts";

let h: DatabaseHandle;
let bus: RunBus;
beforeAll(async () => {
  ({ h, bus } = await openDatabaseWithBus());
}, 60_000);
afterAll(() => closeDatabaseWithBus(h, bus));

/** A model no test call may reach: the runs below must stop before asking it anything. */
function unreachableModel() {
  const calls: string[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      calls.push("generate");
      throw new Error("the model was called");
    },
  });
  return { model, calls };
}

/** One delivery of the run's job to the worker, with `model` as the only model there is. */
function executeWithModel(runId: string, model: MockLanguageModelV4) {
  return executeRun({
    handle: h,
    bus,
    runId,
    workerSignal: new AbortController().signal,
    env: { MODEL: "mock:m" },
    registry: createModelRegistry({ env: { MODEL: "mock:m" }, providerFactories: { mock: () => model } }),
  });
}

describe("a run the worker cannot configure", () => {
  it("fails at once, with the variable to set, status and run.failed written together", async () => {
    const run = await createRun(h.db, {
      ownerId: "o",
      question: "Is a heat pump worth it?",
      settings: { searchProviders: ["library", "tavily"] },
    });
    const announced: BusMessage[] = [];
    const stop = bus.subscribe(run.id, (m) => announced.push(m));
    const mock = unreachableModel();
    const outcome = await executeWithModel(run.id, mock.model);
    stop();
    expect(outcome).toMatchObject({ status: "failed", partial: false });
    expect(outcome.status === "failed" && outcome.reason).toContain("TAVILY_API_KEY");
    const row = await getRun(h.db, run.id);
    expect(row?.status).toBe("failed");
    expect(row?.error).toContain("TAVILY_API_KEY");
    expect(row?.finishedAt).toBeInstanceOf(Date);
    const events = await listEventsAfter(h.db, run.id, 0);
    expect(events.map((e) => e.type)).toEqual(["run.failed"]);
    expect(events[0].payload).toMatchObject({ reason: row?.error, partial: false });
    // The variable to set, as said, inside words the reader's language gives.
    expect(row?.errorBecause).toMatchObject({
      code: "not_configured",
      values: { said: expect.stringContaining("TAVILY_API_KEY") },
    });
    expect(events[0].payload).toMatchObject({ because: row?.errorBecause });
    expect(announced).toEqual([
      {
        kind: "event",
        runId: run.id,
        seq: 1,
        type: "run.failed",
        rows: [expect.objectContaining({ seq: 1, type: "run.failed" })],
      },
    ]);
    expect(mock.calls).toEqual([]);

    // The job's next delivery finds the run ended and does nothing.
    const again = await executeWithModel(run.id, mock.model);
    expect(again.status).toBe("failed");
    expect(await listEventsAfter(h.db, run.id, 0)).toHaveLength(1);
  });

  it("a model override without its key ends the run at its first call, not in a fallback", async () => {
    const scenario: Scenario = {
      question: "How loud are heat pumps at night?",
      brief: "Noise of heat pumps at night, measured.",
      docs: [{ key: "noise", title: "Heat pump noise", content: "Outdoor units emit about 45 dB at night." }],
      directives: [],
      report: () => "# Noise\n\nAbout 45 dB.",
      knowledge: () => ({ items: [] }),
      settings: { models: { supervisor: "anthropic:claude-sonnet-4-5" } },
    };
    const r = await runScenario(h, scenario);
    expect(r.outcome.status).toBe("failed");
    expect(r.outcome.status === "failed" && r.outcome.reason).toContain("ANTHROPIC_API_KEY");
    // No brief written from the question as a fallback, no research: the run stopped where it met the gap.
    expect(r.eventsOf("brief.created")).toEqual([]);
    expect(r.calls).toEqual([]);
    expect(r.eventsOf("run.failed")).toHaveLength(1);
    expect((await getRun(h.db, r.run.id))?.error).toContain("ANTHROPIC_API_KEY");
  });
});
