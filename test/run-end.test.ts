// A run ends in one transaction: its terminal status and its terminal event (run.completed,
// run.failed, run.cancelled) are written together or not at all. A failure injected at the
// terminal event's write (its seq already taken) must leave the status as it was, so a finished
// run never has a stream that does not end, and a retried job can still end it properly.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { listEventsAfter } from "../db/queries/events.ts";
import { createRun, getRun, updateRunStatus } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { createModelClient } from "../lib/ai/client.ts";
import { createModelRegistry } from "../lib/ai/registry.ts";
import { type BusMessage, createRunBus, type RunBus } from "../lib/jobs/bus.ts";
import { createRunWriters } from "../lib/jobs/execute-run.ts";
import { defaultResearchConfig } from "../lib/research/config.ts";
import type { EngineDeps } from "../lib/research/deps.ts";
import type { Phases } from "../lib/research/phases-contract.ts";
import { runResearch } from "../lib/research/run.ts";
import { cancelRun } from "../lib/server/runs/cancel.ts";
import { testDatabases } from "./databases.ts";
import { freeEventSeq, occupyEventSeq } from "./support/run-rows.ts";

const REPORT = "## Heat pumps\n\nA COP of 3 [1].\n\n## Sources\n\n[1] [COP](https://example.org/cop)\n";

/** Phases that store a brief and a report; knowledge extraction runs `lastStep` (the injection point). */
function phases(lastStep: (deps: EngineDeps) => Promise<void>): Phases {
  return {
    clarify: async () => ({ needed: false }),
    writeBrief: async (deps) => {
      await deps.store.saveBrief("I want to know whether heat pumps are efficient.");
      return "brief";
    },
    planFirstRound: async () => undefined,
    runSupervision: async () => ({ rounds: 0, stopReason: "nothing to research" }),
    executeDirective: async (_deps, d) => ({ directiveId: d.id, findings: "", sourceIds: [], ok: false }),
    writeReport: async (deps) => {
      await deps.store.saveReport({ markdown: REPORT, partial: false, citationStats: {} });
      return { markdown: REPORT, partial: false };
    },
    writePartialReport: async () => undefined,
    extractKnowledge: async (deps) => {
      await lastStep(deps);
      return 0;
    },
  };
}

describe.each(testDatabases())("a run's end is one transaction on $name", ({ open }) => {
  let h: DatabaseHandle;
  let bus: RunBus;
  beforeAll(async () => {
    h = await open();
    bus = await createRunBus(h);
  });
  afterAll(async () => {
    await bus?.close();
    await h?.close();
  });

  const newRun = () => createRun(h.db, { ownerId: "o", question: "Are heat pumps efficient?", settings: {} });
  const types = async (runId: string) => (await listEventsAfter(h.db, runId, 0)).map((e) => e.type);

  /** The engine wired as the worker wires it: the database store and the event sink. */
  function engine(runId: string) {
    const { store, events } = createRunWriters(h.db, bus, runId);
    const deps: EngineDeps = {
      models: createModelClient({ registry: createModelRegistry({ env: {} }) }),
      search: async () => ({ results: [], errors: [] }),
      fetchDocument: async () => {
        throw new Error("no fetching in this test");
      },
      store,
      events,
      clock: { now: () => Date.now() },
      signal: new AbortController().signal,
      config: defaultResearchConfig,
    };
    return deps;
  }

  it("the engine: an unwritable run.completed leaves the run running, and a retry ends it", async () => {
    const run = await newRun();
    let occupied = 0;
    const breakTheEnd = async () => {
      // phase.completed takes the next seq; the terminal event would take the one after.
      occupied = ((await getRun(h.db, run.id))?.lastEventSeq ?? 0) + 2;
      await occupyEventSeq(h.db, run.id, occupied);
    };
    const announced: BusMessage[] = [];
    const stop = bus.subscribe(run.id, (m) => announced.push(m));
    await expect(runResearch(engine(run.id), phases(breakTheEnd))).rejects.toThrow();

    let row = await getRun(h.db, run.id);
    expect(row?.status).toBe("running");
    expect(row?.finishedAt).toBeNull();
    expect(row?.error).toBeNull();
    const written = await types(run.id);
    expect(written.at(-1)).toBe("test.occupied");
    expect(written.filter((t) => t.startsWith("run.") && t !== "run.started")).toEqual([]);
    expect(
      announced.some((m) => m.kind === "event" && m.type.startsWith("run.") && m.type !== "run.started"),
    ).toBe(false);

    // The failure is over; the job's retry finds every phase done and ends the run, event last.
    await freeEventSeq(h.db, run.id, occupied);
    const outcome = await runResearch(
      engine(run.id),
      phases(async () => {}),
    );
    expect(outcome).toEqual({ status: "completed", partial: false });
    row = await getRun(h.db, run.id);
    expect(row?.status).toBe("completed");
    expect(row?.finishedAt).toBeInstanceOf(Date);
    expect((await types(run.id)).at(-1)).toBe("run.completed");
    // Announced after COMMIT (with PostgreSQL by NOTIFY, which arrives a moment later).
    const seq = row?.lastEventSeq;
    await vi.waitFor(() =>
      expect(announced.filter((m) => m.kind === "event").at(-1)).toMatchObject({
        type: "run.completed",
        seq,
      }),
    );
    stop();
  });

  it("the store: finishRun writes both or neither, and ends a run only once", async () => {
    const run = await newRun();
    await updateRunStatus(h.db, run.id, { status: "running", phase: "synthesis" });
    const store = createDbRunStore(h.db, run.id);
    await occupyEventSeq(h.db, run.id, 1);
    await expect(
      store.finishRun({ type: "run.failed", reason: "the model went away", partial: false }),
    ).rejects.toThrow();
    let row = await getRun(h.db, run.id);
    expect(row).toMatchObject({ status: "running", phase: "synthesis", error: null, finishedAt: null });

    await freeEventSeq(h.db, run.id, 1);
    expect(await store.finishRun({ type: "run.failed", reason: "the model went away", partial: false })).toBe(
      true,
    );
    row = await getRun(h.db, run.id);
    expect(row).toMatchObject({ status: "failed", phase: "synthesis", error: "the model went away" });
    expect(await types(run.id)).toEqual(["run.failed"]);
    // Already ended: a second end (a duplicate job, a late cancel) writes nothing.
    expect(await store.finishRun({ type: "run.cancelled", reason: "cancelled by the user" })).toBe(false);
    expect((await getRun(h.db, run.id))?.status).toBe("failed");
    expect(await types(run.id)).toEqual(["run.failed"]);
  });

  it("cancel of an idle run: an unwritable run.cancelled leaves it waiting", async () => {
    const run = await newRun();
    await updateRunStatus(h.db, run.id, { status: "awaiting_clarification", phase: "clarification" });
    await occupyEventSeq(h.db, run.id, 1);
    await expect(cancelRun({ handle: h, bus }, run.id, "o")).rejects.toThrow();
    const row = await getRun(h.db, run.id);
    expect(row).toMatchObject({
      status: "awaiting_clarification",
      finishedAt: null,
      cancelRequestedAt: null,
    });
  });
});
