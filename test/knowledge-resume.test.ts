// Knowledge extraction is idempotent on resume: a worker that dies after storing a run's knowledge
// items but before checkpointing the phase leaves the next attempt to run the phase again, and
// that must not add the items a second time (nor a reworded second helping from the model).
// Concurrent saves of the same items (two workers on one run) store them once.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { createRun, updateRunStatus } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { knowledgeItems } from "../db/schema.ts";
import { testDatabases } from "./databases.ts";
import { type NumberedSource, resumeScenario, runScenario, type Scenario } from "./support/engine-harness.ts";

const COP = "Heat pump COP measured in a field trial";

function scenario(): Scenario {
  let extractions = 0;
  const cite = (list: NumberedSource[]) => {
    const s = list.find((x) => x.title === COP);
    if (!s) throw new Error(`"${COP}" is not in the numbered source list`);
    return s.number;
  };
  return {
    question: "What seasonal COP do air-source heat pumps reach in practice?",
    brief: "I want the seasonal coefficient of performance air-source heat pumps reach in real houses.",
    docs: [
      {
        key: "cop",
        title: COP,
        content: "In the field trial, air-source heat pumps reached a seasonal COP of 3.1 across 40 houses.",
      },
    ],
    directives: [
      {
        topic:
          "Seasonal coefficient of performance of air-source heat pumps measured in field trials of houses.",
        query: "heat pump seasonal COP field trial",
        read: COP,
        evidence: "seasonal COP of 3.1",
        findings: (n) => `Air-source heat pumps reached a seasonal COP of 3.1 across 40 houses [${n}].`,
      },
    ],
    report: (list) =>
      `# Heat pump efficiency\n\n## Field results\n\nAir-source heat pumps reached a seasonal COP of 3.1 across 40 houses [${cite(list)}].`,
    // Each extraction words its items a little differently, as a model would.
    knowledge: (list) => {
      extractions += 1;
      return {
        items: [
          {
            category: "finding",
            content: `Air-source heat pumps reach a seasonal COP of about 3.1 in field trials (extraction ${extractions}).`,
            sources: [cite(list)],
            confidence: 0.7,
            needs_review: false,
          },
          {
            category: "lesson",
            content: `Field trials give more reliable COP figures than datasheets (extraction ${extractions}).`,
            sources: [],
            confidence: 0.5,
            needs_review: false,
          },
        ],
      };
    },
  };
}

describe.each(testDatabases())("knowledge items of a run are stored once on $name", ({ open }) => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await open();
  });
  afterAll(async () => {
    await h?.close();
  });

  const itemsOf = (runId: string) =>
    h.db.select().from(knowledgeItems).where(eq(knowledgeItems.runId, runId)).orderBy(knowledgeItems.content);

  it("a knowledge phase re-run after a crash adds no items", async () => {
    const s = scenario();
    const first = await runScenario(h, s);
    expect(first.problems).toEqual([]);
    expect(first.outcome).toEqual({ status: "completed", partial: false });
    const stored = await itemsOf(first.run.id);
    expect(stored).toHaveLength(2);

    // The worker died after storing the items, before the phase's checkpoint: the run is still
    // running in the knowledge phase, which is not marked done.
    const snapshot = await first.store.getRun();
    const checkpoint = snapshot.checkpoint as { done: string[] };
    await first.store.saveCheckpoint(
      { ...checkpoint, done: checkpoint.done.filter((p) => p !== "knowledge") },
      snapshot.stateVersion,
    );
    await updateRunStatus(h.db, first.run.id, { status: "running", phase: "knowledge", error: null });

    const second = await resumeScenario(h, s, first);
    expect(second.problems).toEqual([]);
    expect(second.outcome).toEqual({ status: "completed", partial: false });
    expect(second.eventsOf("phase.started").map((e) => e.phase)).toEqual(["knowledge"]);
    expect(second.callsOf("knowledge")).toEqual([]);
    expect(second.eventsOf("knowledge.extracted")).toEqual([{ type: "knowledge.extracted", count: 2 }]);
    expect((await itemsOf(first.run.id)).map((k) => k.id)).toEqual(stored.map((k) => k.id));
  });

  it("the same items saved twice at once, spelled a little differently, are stored once", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "Knowledge twice?", settings: {} });
    const item = (content: string) => ({
      category: "finding" as const,
      content,
      sourceIds: [],
      confidence: 0.6,
      needsReview: true,
    });
    await Promise.all([
      createDbRunStore(h.db, run.id).saveKnowledgeItems([
        item("Heat pumps need a low flow temperature."),
        item("Ground loops last fifty years."),
      ]),
      createDbRunStore(h.db, run.id).saveKnowledgeItems([item("heat pumps  need a LOW flow temperature.")]),
    ]);
    expect((await itemsOf(run.id)).map((k) => k.content.toLowerCase().replace(/\s+/g, " "))).toEqual([
      "ground loops last fifty years.",
      "heat pumps need a low flow temperature.",
    ]);
    // What the knowledge phase asks before extracting: this run already has its items.
    expect(await createDbRunStore(h.db, run.id).countRunKnowledge()).toBe(2);
  });
});
