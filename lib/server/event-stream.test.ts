import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "../../db/client.ts";
import { appendEvent } from "../../db/queries/events.ts";
import { createRun, updateRunStatus } from "../../db/queries/runs.ts";
import { createRunBus } from "../jobs/bus.ts";
import type { StoredEvent } from "../research/events.ts";
import { runEventStream } from "./event-stream.ts";

let h: DatabaseHandle;
beforeAll(async () => {
  h = await openDatabase({ dataDir: null });
  await migrateDatabase(h);
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
