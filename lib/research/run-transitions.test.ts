/**
 * The run's start and its phase transitions read and write as little as they can (issue 14: each
 * statement costs embedded PGlite about a millisecond on the run's serial path): the run row is
 * read once per attempt (not at all when the worker passes it), status and phase are one write
 * per phase, and the events between two model calls are one block, in their order.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { addKnowledgeItem } from "../../db/queries/knowledge.ts";
import { createRun, getRun, updateRunStatus } from "../../db/queries/runs.ts";
import { createDbRunStore, toRunSnapshot } from "../../db/research-store.ts";
import { knowledgeItems } from "../../db/schema.ts";
import { driverDeps } from "../../test/support/driver-deps.ts";
import { gate } from "../../test/support/gate.ts";
import { recordingEnd } from "../../test/support/recording-store.ts";
import { engineDbForFile } from "../../test/support/researcher-harness.ts";
import type { ResearchEvent, StoredEvent } from "./events.ts";
import type { Phases } from "./phases-contract.ts";
import { runResearch } from "./run.ts";
import type { RunStore } from "./store.ts";

const engine = engineDbForFile();

/** The event blocks of a run through every phase: each transition one block, in order. */
const FULL_RUN_BLOCKS = [
  ["run.started", "phase.started"],
  ["phase.completed", "phase.started"],
  ["phase.completed", "phase.started"],
  ["phase.completed", "phase.started"],
  ["phase.completed"],
];

/** The store, counting each method's calls (the calls go through to the database). */
function counting(store: RunStore): { store: RunStore; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        calls[String(key)] = (calls[String(key)] ?? 0) + 1;
        return v.apply(target, args);
      };
    },
  });
  return { store: wrapped, calls };
}

async function setup(settings: Record<string, unknown> = {}) {
  const run = await createRun(engine.handle.db, {
    ownerId: "o",
    question: "Are heat pumps efficient?",
    settings,
  });
  const events: ResearchEvent[] = [];
  /** Each write of the sink: one event (emit) or a block (emitMany). */
  const writes: string[][] = [];
  const { store, calls } = counting(recordingEnd(createDbRunStore(engine.handle.db, run.id), events));
  const deps = driverDeps({
    store,
    events: {
      emit: async (e) => {
        writes.push([e.type]);
        events.push(e);
      },
      emitMany: async (es: readonly StoredEvent[]) => {
        writes.push(es.map((e) => e.type));
        events.push(...es);
      },
    },
    settings,
  });
  return { run, events, writes, calls, deps };
}

function phases(seen: { brief?: string }, overrides: Partial<Phases> = {}): Phases {
  return {
    clarify: async () => ({ needed: false }),
    writeBrief: async (deps) => {
      await deps.store.saveBrief("The brief, as written.");
      return "The brief, as written.";
    },
    planFirstRound: async () => undefined,
    runSupervision: async (_deps, { brief }) => {
      seen.brief = brief;
      return { rounds: 1, stopReason: "coverage sufficient" };
    },
    executeDirective: async () => {
      throw new Error("no directive in this test");
    },
    writeReport: async (deps) => {
      const markdown = "A finding [1].\n\n## Sources\n\n[1] x\n";
      await deps.store.saveReport({ markdown, partial: false, citationStats: {} });
      return { markdown, partial: false };
    },
    writePartialReport: async () => undefined,
    extractKnowledge: async () => 0,
    ...overrides,
  } as Phases;
}

describe("a run's start and phase transitions", () => {
  it("reads the run row once, sets status and phase once per phase, and writes each transition's events as one block", async () => {
    const s = await setup();
    const seen: { brief?: string } = {};
    expect(await runResearch(s.deps, phases(seen))).toEqual({ status: "completed", partial: false });
    expect(s.calls.getRun ?? 0).toBe(1);
    // One write per phase (status with its phase), none for "running" alone.
    expect(s.calls.setStatus).toBe(4);
    // Sources read once for research, once for the report, once for knowledge and the run's end; the report likewise.
    expect(s.calls.listSources).toBe(3);
    expect(s.calls.getReport).toBe(2);
    // The attempt's count and each finished phase go with the next phase's status; only the last alone.
    expect(s.calls.saveCheckpoint).toBe(1);
    expect((await getRun(engine.handle.db, s.run.id))?.checkpoint).toMatchObject({
      attempts: 1,
      done: ["brief", "supervision", "synthesis", "knowledge"],
    });
    expect(seen.brief).toBe("The brief, as written.");
    expect(s.writes).toEqual(FULL_RUN_BLOCKS);
    // The end is the store's (one transaction with the status), after every event written.
    expect(s.events.at(-1)).toEqual({ type: "run.completed", sources: 0, citations: 1, partial: false });
    expect(s.events.filter((e) => e.type === "phase.started").map((e) => "phase" in e && e.phase)).toEqual([
      "brief",
      "supervision",
      "synthesis",
      "knowledge",
    ]);
    expect((await getRun(engine.handle.db, s.run.id))?.status).toBe("completed");
  });

  it("writes the report right after research from the rows the last round read, while the report phase's start is written", async () => {
    const s = await setup();
    const log: string[] = [];
    const reportCalled = gate();
    // The synthesis phase's status write is held until the report is asked for (2 s at most).
    const store: RunStore = Object.create(s.deps.store);
    store.setStatus = async (patch) => {
      if (patch.phase === "synthesis") {
        await reportCalled.openedOrAfter();
        log.push("synthesis started (stored)");
      }
      return s.deps.store.setStatus(patch);
    };
    const gathered = {
      directives: [],
      results: [
        {
          directiveId: "d1",
          messages: [],
          compressedFindings: "Heat pumps reach a COP of 3 [1].",
          rawNotes: null,
          toolCalls: 2,
          stopReason: "done",
        },
      ],
      sources: [],
      sourcesByDirective: new Map(),
    };
    let input: Parameters<Phases["writeReport"]>[1] | undefined;
    const writeReport: Phases["writeReport"] = async (deps, given) => {
      log.push("report asked for");
      reportCalled.open();
      input = given;
      const markdown = "A finding [1].\n\n## Sources\n\n[1] x\n";
      await deps.store.saveReport({ markdown, partial: false, citationStats: {} });
      return { markdown, partial: false };
    };
    const runSupervision: Phases["runSupervision"] = async () => ({
      rounds: 1,
      stopReason: "max_rounds",
      gathered,
    });
    const outcome = await runResearch({ ...s.deps, store }, phases({}, { runSupervision, writeReport }));

    expect(outcome).toEqual({ status: "completed", partial: false });
    expect(log).toEqual(["report asked for", "synthesis started (stored)"]);
    expect(input?.findings).toEqual([{ directiveId: "d1", findings: "Heat pumps reach a COP of 3 [1]." }]);
    expect(input?.directives).toBe(gathered.directives);
    expect(input?.sources).toBe(gathered.sources);
    expect(input?.directiveSources).toBe(gathered.sourcesByDirective);
    // Nothing the last round read is read again: no report can exist yet, sources only for research and knowledge.
    expect(s.calls.getReport).toBe(1);
    expect(s.calls.listSources).toBe(2);
    expect(s.calls.listResearcherResults ?? 0).toBe(0);
    // The transitions are still one block each, in order.
    expect(s.writes).toEqual(FULL_RUN_BLOCKS);
    expect((await getRun(engine.handle.db, s.run.id))?.checkpoint).toMatchObject({
      done: ["brief", "supervision", "synthesis", "knowledge"],
    });
  });

  it("does not read the run row at all when the caller passes it", async () => {
    const s = await setup();
    const row = await getRun(engine.handle.db, s.run.id);
    if (!row) throw new Error("no run");
    await runResearch(s.deps, phases({}), toRunSnapshot(row));
    expect(s.calls.getRun ?? 0).toBe(0);
    expect(s.events[0]).toEqual({ type: "run.started", attempt: 1 });
  });

  it("a resumed run announces the resume with its first phase, and researches from the stored brief", async () => {
    const s = await setup();
    const crash = new Error("worker died");
    await runResearch(s.deps, phases({}, { runSupervision: async () => Promise.reject(crash) }));
    s.writes.length = 0;
    s.events.length = 0;
    s.calls.getRun = 0;
    s.calls.setStatus = 0;
    const seen: { brief?: string } = {};
    // The brief's checkpoint was written with supervision's start, before the crash.
    expect((await getRun(engine.handle.db, s.run.id))?.checkpoint).toMatchObject({
      attempts: 1,
      done: ["brief"],
    });
    // The failed run is reopened as a retry would find it after a crash (status running, phase supervision).
    await updateRunStatus(engine.handle.db, s.run.id, {
      status: "running",
      phase: "supervision",
      error: null,
    });
    let briefs = 0;
    const writeBrief = async () => {
      briefs++;
      return "a second brief";
    };
    expect(await runResearch(s.deps, phases(seen, { writeBrief }))).toEqual({
      status: "completed",
      partial: false,
    });
    expect(briefs).toBe(0);
    expect(seen.brief).toBe("The brief, as written.");
    expect(s.calls.getRun).toBe(1);
    expect(s.calls.setStatus).toBe(3);
    expect(s.writes[0]).toEqual(["run.resumed", "phase.started"]);
    expect(s.events[0]).toEqual({ type: "run.resumed", phase: "supervision", attempt: 2 });
  });

  it("a run with every phase done still marks itself running before it ends", async () => {
    const s = await setup();
    await runResearch(s.deps, phases({}));
    await updateRunStatus(engine.handle.db, s.run.id, { status: "running", phase: "knowledge", error: null });
    s.writes.length = 0;
    s.calls.setStatus = 0;
    await runResearch(s.deps, phases({}));
    expect(s.calls.setStatus).toBe(1);
    expect(s.writes).toEqual([["run.resumed"]]);
    expect(s.events.at(-1)?.type).toBe("run.completed");
  });
});

describe("the store's knowledge methods", () => {
  it("read and write the owner's items in one statement each (the owner is a subquery)", async () => {
    const run = await createRun(engine.handle.db, { ownerId: "k-owner", question: "q?", settings: {} });
    await addKnowledgeItem(engine.handle.db, "k-owner", {
      category: "finding",
      content: "Heat pumps have a COP near 3.",
    });
    await addKnowledgeItem(engine.handle.db, "someone-else", {
      category: "finding",
      content: "Not the owner's.",
    });
    const store = createDbRunStore(engine.handle.db, run.id);
    if (engine.handle.kind !== "pglite") throw new Error("this test counts PGlite's statements");
    const query = vi.spyOn(engine.handle.client, "query");
    try {
      const items = await store.listEstablishedKnowledge(50);
      expect(query).toHaveBeenCalledTimes(1);
      expect(items.map((i) => i.content)).toContain("Heat pumps have a COP near 3.");
      expect(items.map((i) => i.content)).not.toContain("Not the owner's.");
      query.mockClear();
      await store.saveKnowledgeItems([
        { category: "finding", content: "New.", sourceIds: [], confidence: 0.5, needsReview: false },
      ]);
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
    const mine = await engine.handle.db.select().from(knowledgeItems).where(eq(knowledgeItems.runId, run.id));
    expect(mine.map((k) => k.ownerId)).toEqual(["k-owner"]);
  });
});
