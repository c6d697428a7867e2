// The stream's wake-ups against the real database, with the events read held at will: an event
// announced while a read is out must not wait for the poll, and a burst travels as one chunk.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "../../db/client.ts";
import * as events from "../../db/queries/events.ts";
import { createRun, updateRunStatus } from "../../db/queries/runs.ts";
import { gate } from "../../test/support/gate.ts";
import { createRunBus } from "../jobs/bus.ts";
import { runEventStream } from "./event-stream.ts";

vi.mock("../../db/queries/events.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../db/queries/events.ts")>();
  return { ...real, listEventsAfter: vi.fn(real.listEventsAfter) };
});
const { appendEvent, listEventsAfter } = events;
const realListEventsAfter = (await vi.importActual<typeof events>("../../db/queries/events.ts"))
  .listEventsAfter;

let h: DatabaseHandle;
beforeAll(async () => {
  h = await openDatabase({ dataDir: null });
  await migrateDatabase(h);
});
afterAll(async () => {
  await h.close();
});

const dec = new TextDecoder();
const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

/** Reads the stream chunk by chunk, keeping each chunk's text apart. */
function readChunks(stream: ReadableStream<Uint8Array>) {
  const chunks: string[] = [];
  const done = (async () => {
    for await (const chunk of stream) chunks.push(dec.decode(chunk));
  })();
  return { chunks, done };
}
const until = async (check: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  return check();
};

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
    expect(await until(() => ids(chunks.join("")).length === 1)).toBe(true);

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

    expect(await until(() => ids(chunks.join("")).length === 3, 1000)).toBe(true);
    expect(ids(chunks.join(""))).toEqual([1, 2, 3]);

    await updateRunStatus(h.db, run.id, { status: "completed" });
    const last = await appendEvent(h.db, run.id, {
      type: "run.completed",
      sources: 0,
      citations: 0,
      partial: false,
    });
    await bus.publish({ kind: "event", runId: run.id, seq: last.seq, type: "run.completed" });
    await done;
    expect(ids(chunks.join(""))).toEqual([1, 2, 3, 4]);
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
    const withEvents = chunks.filter((c) => ids(c).length > 0);
    expect(withEvents.map(ids)).toEqual([[2, 3, 4]]);
  });
});
