import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "../../db/client.ts";
import { appendEvents, listEventsAfter } from "../../db/queries/events.ts";
import { createRun, getRun, updateRunStatus } from "../../db/queries/runs.ts";
import { testDatabases } from "../../test/databases.ts";
import type { BusMessage, RunBus } from "./bus.ts";
import { createRunEventSink, withEventTransaction } from "./event-sink.ts";

vi.mock("../../db/queries/events.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../db/queries/events.ts")>();
  return { ...real, appendEvents: vi.fn(real.appendEvents) };
});

/** A bus that records what is announced, in order. */
function recordingBus() {
  const messages: BusMessage[] = [];
  const bus: RunBus = {
    async publish(m) {
      messages.push(m);
    },
    subscribe: () => () => {},
    async close() {},
  };
  // Each announcement names its last seq and carries the rows it covers (in-process).
  const announced = () =>
    messages.flatMap((m) => {
      if (m.kind !== "event") return [];
      const rows = m.rows ?? [];
      if (rows.at(-1)?.seq !== m.seq) throw new Error(`announced seq ${m.seq} is not its last row's`);
      return rows.map((r) => `${r.seq}:${r.type}`);
    });
  return { bus, messages, announced };
}

describe.each(testDatabases())("the event path on $name", ({ open }) => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await open();
  });
  afterAll(async () => {
    await h?.close();
  });

  const newRun = () => createRun(h.db, { ownerId: "o", question: "events?", settings: {} });
  const written = async (runId: string) =>
    (await listEventsAfter(h.db, runId, 0)).map((e) => `${e.seq}:${e.type}`);

  it("announces a transaction's events after COMMIT, each with the seq it was written with", async () => {
    const run = await newRun();
    const { bus, announced } = recordingBus();
    await withEventTransaction(h.db, bus, async (tx, events) => {
      await events.append(run.id, { type: "run.started", attempt: 1 });
      await updateRunStatus(tx, run.id, { status: "running", phase: "brief" });
      const row = await events.append(run.id, { type: "phase.started", phase: "brief" });
      expect(row.seq).toBe(2);
      // Nothing is announced while the transaction is open: a reader could not see the rows yet.
      expect(announced()).toEqual([]);
    });
    expect(announced()).toEqual(["1:run.started", "2:phase.started"]);
    expect(await written(run.id)).toEqual(announced());
    expect((await getRun(h.db, run.id))?.status).toBe("running");
  });

  it("announces and writes nothing when the transaction rolls back, and gives the seq back", async () => {
    const run = await newRun();
    const { bus, messages } = recordingBus();
    await expect(
      withEventTransaction(h.db, bus, async (tx, events) => {
        await events.append(run.id, { type: "run.started", attempt: 1 });
        await updateRunStatus(tx, run.id, { status: "running" });
        throw new Error("the action failed after appending");
      }),
    ).rejects.toThrow(/failed after appending/);
    expect(messages).toEqual([]);
    expect(await written(run.id)).toEqual([]);
    const row = await getRun(h.db, run.id);
    expect(row?.status).toBe("queued");
    expect(row?.lastEventSeq).toBe(0);

    // The next event takes seq 1: the rolled-back one left no gap.
    await withEventTransaction(h.db, bus, (_tx, events) =>
      events.append(run.id, { type: "run.started", attempt: 1 }),
    );
    expect(messages).toEqual([
      {
        kind: "event",
        runId: run.id,
        seq: 1,
        type: "run.started",
        rows: [expect.objectContaining({ runId: run.id, seq: 1, type: "run.started" })],
      },
    ]);
  });

  it("the engine's sink announces the written seq, writes the terminal event last and nothing after it", async () => {
    const run = await newRun();
    const { bus, messages, announced } = recordingBus();
    const sink = createRunEventSink(h.db, bus, run.id);
    const searches = Array.from({ length: 6 }, (_, i) =>
      sink.emit({ type: "researcher.search", directiveId: "d", query: `q${i}` }),
    );
    await sink.emit({ type: "report.delta", text: "partial text" });
    const terminal = sink.emit({ type: "run.completed", sources: 0, citations: 0, partial: false });
    await Promise.all([...searches, terminal]);
    await sink.emit({ type: "phase.started", phase: "done" });

    const rows = await written(run.id);
    expect(rows).toHaveLength(7);
    expect(rows.at(-1)).toBe("7:run.completed");
    expect(announced().sort()).toEqual([...rows].sort());
    expect(announced().at(-1)).toBe("7:run.completed");
    // The transient delta is announced with its text and never stored.
    expect(messages).toContainEqual({ kind: "delta", runId: run.id, text: "partial text" });
  });

  it("the engine's sink writes the events emitted while a write is out together in the next, in order", async () => {
    const run = await newRun();
    const { bus, announced } = recordingBus();
    const sink = createRunEventSink(h.db, bus, run.id);
    const search = (i: number) => sink.emit({ type: "researcher.search", directiveId: "d", query: `q${i}` });
    vi.mocked(appendEvents).mockClear();
    await Promise.all(Array.from({ length: 8 }, (_, i) => search(i)));
    // The first is written at once; the seven emitted while it was out share the next statement.
    expect(vi.mocked(appendEvents)).toHaveBeenCalledTimes(2);
    const rows = await listEventsAfter(h.db, run.id, 0);
    expect(rows.map((r) => (r.payload as { query: string }).query)).toEqual(
      Array.from({ length: 8 }, (_, i) => `q${i}`),
    );
    expect(announced()).toEqual(await written(run.id));

    // A write that fails fails the emits it carried, and only those: the next block is written.
    vi.mocked(appendEvents).mockRejectedValueOnce(new Error("disk full"));
    const failed = search(8);
    const later = [search(9), search(10)];
    await expect(failed).rejects.toThrow("disk full");
    await expect(Promise.all(later)).resolves.toBeDefined();
    const after = await listEventsAfter(h.db, run.id, 8);
    expect(after.map((r) => (r.payload as { query: string }).query)).toEqual(["q9", "q10"]);
  });

  it("the engine's sink writes a block of events in order and announces each with its seq", async () => {
    const run = await newRun();
    const { bus, announced } = recordingBus();
    const sink = createRunEventSink(h.db, bus, run.id);
    await sink.emit({ type: "researcher.search", directiveId: "d", query: "q" });
    const added = (n: number) => ({
      type: "source.added" as const,
      sourceId: `s${n}`,
      directiveId: "d",
      url: `https://example.org/${n}`,
      title: `S${n}`,
      domain: "example.org",
      quality: "MEDIUM" as const,
    });
    await sink.emitMany?.([added(1), added(2), added(3)]);
    expect(await written(run.id)).toEqual([
      "1:researcher.search",
      "2:source.added",
      "3:source.added",
      "4:source.added",
    ]);
    expect(announced()).toEqual(await written(run.id));
    const titles = (await listEventsAfter(h.db, run.id, 1)).map(
      (e) => (e.payload as { title: string }).title,
    );
    expect(titles).toEqual(["S1", "S2", "S3"]);
  });
});
