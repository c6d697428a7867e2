import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import { appendEvent, listEventsAfter } from "../../../db/queries/events.ts";
import { createRun, updateRunStatus } from "../../../db/queries/runs.ts";
import { openMigratedPglite } from "../../../test/support/db-template.ts";
import { gate } from "../../../test/support/gate.ts";
import { until } from "../../../test/support/until.ts";
import { createRunBus } from "../../jobs/bus.ts";
import type { StoredEvent } from "../../research/events.ts";
import { runEventStream } from "./event-stream.ts";

// listEventsAfter stays the real query; the wake-up tests hold one read at will.
vi.mock("../../../db/queries/events.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../db/queries/events.ts")>();
  return { ...real, listEventsAfter: vi.fn(real.listEventsAfter) };
});
const realListEventsAfter = (
  await vi.importActual<typeof import("../../../db/queries/events.ts")>("../../../db/queries/events.ts")
).listEventsAfter;

let h: DatabaseHandle;
beforeAll(async () => {
  h = await openMigratedPglite();
});
afterAll(async () => {
  await h.close();
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const dec = new TextDecoder();
  for await (const chunk of stream) text += dec.decode(chunk);
  return text;
}
const ids = (text: string) => [...text.matchAll(/^id: (\d+)\nevent: (.+)$/gm)].map((m) => `${m[1]}:${m[2]}`);

/** A minimal event of each type the tests write. */
const events = {
  "run.created": { type: "run.created", question: "q?", settings: {} },
  "run.started": { type: "run.started", attempt: 1 },
  "phase.started": { type: "phase.started", phase: "brief" },
  "phase.completed": { type: "phase.completed", phase: "brief", durationMs: 1 },
  "run.completed": { type: "run.completed", sources: 0, citations: 0, partial: false },
} satisfies Record<string, StoredEvent>;

describe("runEventStream", () => {
  it("replays after the cursor and ends with the terminal event", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    for (const t of ["run.created", "run.started", "phase.started"] as const) {
      await appendEvent(h.db, run.id, events[t]);
    }
    await updateRunStatus(h.db, run.id, { status: "completed" });
    await appendEvent(h.db, run.id, events["run.completed"]);
    const signal = new AbortController().signal;
    const text = await readAll(runEventStream({ db: h.db, runId: run.id, afterSeq: 1, signal, pollMs: 20 }));
    expect(ids(text)).toEqual(["2:run.started", "3:phase.started", "4:run.completed"]);
    // Reconnecting after the terminal event: nothing to send, the stream ends at once.
    const after = await readAll(runEventStream({ db: h.db, runId: run.id, afterSeq: 4, signal, pollMs: 20 }));
    expect(ids(after)).toEqual([]);
  });

  it("does not end between the terminal status and the terminal event written just after it", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, events["run.created"]);
    await appendEvent(h.db, run.id, events["phase.completed"]);
    // The orchestrator's order: status first, then the terminal event a moment later.
    await updateRunStatus(h.db, run.id, { status: "completed" });
    const signal = new AbortController().signal;
    const reading = readAll(runEventStream({ db: h.db, runId: run.id, afterSeq: 0, signal, pollMs: 20 }));
    await new Promise((r) => setTimeout(r, 150));
    await appendEvent(h.db, run.id, events["run.completed"]);
    expect(ids(await reading)).toEqual(["1:run.created", "2:phase.completed", "3:run.completed"]);
  });

  it("asks for the run's status (two columns) only on a wake-up that brought no event", async () => {
    const bus = await createRunBus(h);
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, events["run.created"]);
    const signal = new AbortController().signal;
    const reads = vi.spyOn(h.db, "select");
    const reading = readAll(
      runEventStream({ db: h.db, runId: run.id, afterSeq: 0, signal, bus, pollMs: 60_000 }),
    );
    await new Promise((r) => setTimeout(r, 50));
    // The first read brought run.created: no status read. Then two announced events, one by one.
    for (const t of ["run.started", "phase.started"] as const) {
      const { seq } = await appendEvent(h.db, run.id, events[t]);
      await bus.publish({ kind: "event", runId: run.id, seq, type: t });
      await new Promise((r) => setTimeout(r, 50));
    }
    const statusReads = () => reads.mock.calls.filter((c) => c[0] !== undefined);
    // Three reads of the events (the first and one per announcement), nothing else.
    expect(reads.mock.calls.length).toBe(3);
    expect(statusReads()).toEqual([]);
    // A wake-up whose events were already read (announced late): nothing new, so the status is asked.
    await bus.publish({ kind: "event", runId: run.id, seq: 1, type: "run.created" });
    await bus.publish({ kind: "event", runId: run.id, seq: 99, type: "phase.started" });
    await new Promise((r) => setTimeout(r, 50));
    expect(statusReads().map((c) => Object.keys(c[0] ?? {}).sort())).toEqual([["lastEventSeq", "status"]]);
    await updateRunStatus(h.db, run.id, { status: "completed" });
    const last = await appendEvent(h.db, run.id, events["run.completed"]);
    await bus.publish({ kind: "event", runId: run.id, seq: last.seq, type: "run.completed" });
    expect(ids(await reading)).toEqual([
      "1:run.created",
      "2:run.started",
      "3:phase.started",
      "4:run.completed",
    ]);
    reads.mockRestore();
    await bus.close();
  });

  it("stops following when the client goes away", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, events["run.created"]);
    const controller = new AbortController();
    const reading = readAll(
      runEventStream({ db: h.db, runId: run.id, afterSeq: 0, signal: controller.signal, pollMs: 20 }),
    );
    setTimeout(() => controller.abort(), 100);
    expect(ids(await reading)).toEqual(["1:run.created"]);
  });

  it("viewers woken by the same announcement share their reads, and each gets every event in order", async () => {
    const bus = await createRunBus(h);
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, events["run.created"]);
    const signal = new AbortController().signal;
    // A poll far longer than the test: only announcements move the viewers.
    const viewers = Array.from({ length: 30 }, () =>
      readAll(runEventStream({ db: h.db, runId: run.id, afterSeq: 0, signal, bus, pollMs: 60_000 })),
    );
    await new Promise((r) => setTimeout(r, 100));
    const reads = vi.spyOn(h.db, "select");
    for (const t of ["run.started", "phase.started", "phase.completed"] as const) {
      const { seq } = await appendEvent(h.db, run.id, events[t]);
      await bus.publish({ kind: "event", runId: run.id, seq, type: t });
      await new Promise((r) => setTimeout(r, 50));
    }
    await updateRunStatus(h.db, run.id, { status: "completed" });
    const last = await appendEvent(h.db, run.id, events["run.completed"]);
    await bus.publish({ kind: "event", runId: run.id, seq: last.seq, type: "run.completed" });
    const texts = await Promise.all(viewers);
    const expected = [
      "1:run.created",
      "2:run.started",
      "3:phase.started",
      "4:phase.completed",
      "5:run.completed",
    ];
    for (const text of texts) expect(ids(text)).toEqual(expected);
    // Four announcements, 30 viewers: one shared read each (the events after the cursor; the run's
    // status is not asked when events came), not one per viewer.
    expect(reads.mock.calls.length).toBeLessThan(4 * 2);
    reads.mockRestore();
    await bus.close();
  });
});

// An event announced while a read is out must not wait for the poll, and a burst travels as one chunk.
const dec = new TextDecoder();
const seqs = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

/** Reads the stream chunk by chunk, keeping each chunk's text apart. */
function readChunks(stream: ReadableStream<Uint8Array>) {
  const chunks: string[] = [];
  const done = (async () => {
    for await (const chunk of stream) chunks.push(dec.decode(chunk));
  })();
  return { chunks, done };
}

describe("runEventStream wake-ups", () => {
  it("reads again at once when an event is announced while a read is out, instead of sleeping until the poll", async () => {
    const bus = await createRunBus(h);
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, { type: "run.created", question: "q?", settings: {} });
    const signal = new AbortController().signal;
    // A poll far longer than the test: only announcements move the viewer.
    const { chunks, done } = readChunks(
      runEventStream({ db: h.db, runId: run.id, afterSeq: 0, signal, bus, pollMs: 60_000 }),
    );
    expect(await until(() => seqs(chunks.join("")).length === 1)).toBe(true);

    // The read woken by seq 2 takes its rows, then is held; seq 3 is committed and announced
    // meanwhile, so that read cannot contain it.
    const held = gate();
    vi.mocked(listEventsAfter).mockImplementationOnce(async (...args) => {
      const rows = await realListEventsAfter(...args);
      await held.opened;
      return rows;
    });
    const second = await appendEvent(h.db, run.id, { type: "run.started", attempt: 1 });
    await bus.publish({ kind: "event", runId: run.id, seq: second.seq, type: "run.started" });
    await until(() => vi.mocked(listEventsAfter).mock.calls.length >= 2);
    const third = await appendEvent(h.db, run.id, { type: "phase.started", phase: "brief" });
    await bus.publish({ kind: "event", runId: run.id, seq: third.seq, type: "phase.started" });
    held.open();

    expect(await until(() => seqs(chunks.join("")).length === 3, 1000)).toBe(true);
    expect(seqs(chunks.join(""))).toEqual([1, 2, 3]);

    await updateRunStatus(h.db, run.id, { status: "completed" });
    const last = await appendEvent(h.db, run.id, {
      type: "run.completed",
      sources: 0,
      citations: 0,
      partial: false,
    });
    await bus.publish({ kind: "event", runId: run.id, seq: last.seq, type: "run.completed" });
    await done;
    expect(seqs(chunks.join(""))).toEqual([1, 2, 3, 4]);
    await bus.close();
  });

  it("sends the events one read brought as one chunk, ending with the terminal event", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, { type: "run.created", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, { type: "run.started", attempt: 1 });
    await appendEvent(h.db, run.id, { type: "phase.started", phase: "brief" });
    await updateRunStatus(h.db, run.id, { status: "completed" });
    await appendEvent(h.db, run.id, { type: "run.completed", sources: 0, citations: 0, partial: false });
    const signal = new AbortController().signal;
    const { chunks, done } = readChunks(
      runEventStream({ db: h.db, runId: run.id, afterSeq: 1, signal, pollMs: 60_000 }),
    );
    await done;
    const withEvents = chunks.filter((c) => seqs(c).length > 0);
    expect(withEvents.map(seqs)).toEqual([[2, 3, 4]]);
  });
});
