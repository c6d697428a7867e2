// The run's hub: many viewers of one run fed by one read per announcement, each viewer gapless
// from its own cursor, idle viewers polled together, and the terminal event written to all before any closes.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import { appendEvent, appendEvents, listEventsAfter } from "../../../db/queries/events.ts";
import { createRun, updateRunStatus } from "../../../db/queries/runs.ts";
import { closeDatabaseWithBus, openDatabaseWithBus } from "../../../test/support/run-bus-db.ts";
import { until } from "../../../test/support/until.ts";
import type { RunBus } from "../../jobs/bus.ts";
import type { StoredEvent } from "../../research/events.ts";
import { type FanoutViewer, runFanout } from "./fanout.ts";

vi.mock("../../../db/queries/events.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../db/queries/events.ts")>();
  return { ...real, listEventsAfter: vi.fn(real.listEventsAfter) };
});

let h: DatabaseHandle;
let bus: RunBus;
beforeAll(async () => {
  ({ h, bus } = await openDatabaseWithBus());
});
afterAll(async () => {
  await closeDatabaseWithBus(h, bus);
});

const dec = new TextDecoder();
const idle = { pollMs: 60_000, heartbeatMs: 60_000 };

/** A viewer that records what the hub does to it, in one log shared by all viewers of a test. */
function recorder(name: string, log: string[], cursor = 0, deltas = false) {
  const texts: string[] = [];
  const viewer: FanoutViewer & { texts: string[]; seqs: () => number[]; ended: boolean } = {
    cursor,
    deltas,
    lastWrite: Date.now(),
    texts,
    ended: false,
    seqs: () => [...texts.join("").matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])),
    send(bytes) {
      texts.push(dec.decode(bytes));
      viewer.lastWrite = Date.now();
      log.push(`send ${name}`);
    },
    end() {
      viewer.ended = true;
      log.push(`end ${name}`);
    },
    fail(error) {
      log.push(`fail ${name}: ${String(error)}`);
    },
  };
  return viewer;
}
const started: StoredEvent = { type: "run.started", attempt: 1 };
const completed: StoredEvent = { type: "run.completed", sources: 0, citations: 0, partial: false };

async function announce(runId: string, event: StoredEvent) {
  const row = await appendEvent(h.db, runId, event);
  await bus.publish({ kind: "event", runId, seq: row.seq, type: row.type });
  return row;
}

describe("RunFanout", () => {
  it("reads once per announcement for all its viewers and gives each every event from its own cursor", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    for (let i = 0; i < 3; i++) await appendEvent(h.db, run.id, { type: "phase.started", phase: "brief" });
    const log: string[] = [];
    const hub = runFanout(h.db, run.id, bus, idle);
    const live = Array.from({ length: 40 }, (_, i) => recorder(`v${i}`, log));
    for (const v of live) hub.join(v);
    expect(await until(() => live.every((v) => v.cursor === 3))).toBe(true);

    vi.mocked(listEventsAfter).mockClear();
    await announce(run.id, started);
    expect(await until(() => live.every((v) => v.cursor === 4))).toBe(true);
    // Forty viewers at one cursor: one read.
    expect(vi.mocked(listEventsAfter)).toHaveBeenCalledTimes(1);

    // A late joiner from the start, and one that reconnected after seq 2: each catches up alone,
    // then follows with the rest.
    const late = recorder("late", log, 0);
    const reconnected = recorder("reconnected", log, 2);
    hub.join(late);
    hub.join(reconnected);
    expect(await until(() => late.cursor === 4 && reconnected.cursor === 4)).toBe(true);
    await updateRunStatus(h.db, run.id, { status: "completed" });
    await announce(run.id, completed);
    const all = [...live, late, reconnected];
    expect(await until(() => all.every((v) => v.ended))).toBe(true);
    for (const v of live) expect(v.seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(late.seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(reconnected.seqs()).toEqual([3, 4, 5]);
    // The last viewer was written to before the first was closed: a close is the dearer of the two.
    const terminalWrites = log.slice(-2 * all.length);
    expect(terminalWrites.slice(0, all.length).every((l) => l.startsWith("send"))).toBe(true);
    expect(terminalWrites.slice(all.length).every((l) => l.startsWith("end"))).toBe(true);
    // The run's last viewer gone, the hub is too: the next viewer gets a new one.
    expect(hub.size).toBe(0);
    expect(runFanout(h.db, run.id, bus, idle)).not.toBe(hub);
  });

  it("polls once per interval for all its viewers, and beats their hearts when nothing is written", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, { type: "run.created", question: "q?", settings: {} });
    const log: string[] = [];
    const hub = runFanout(h.db, run.id, undefined, { pollMs: 40, heartbeatMs: 100 });
    const viewers = Array.from({ length: 20 }, (_, i) => recorder(`v${i}`, log));
    const leaves = viewers.map((v) => hub.join(v));
    expect(await until(() => viewers.every((v) => v.cursor === 1))).toBe(true);
    vi.mocked(listEventsAfter).mockClear();
    await new Promise((r) => setTimeout(r, 400));
    // About ten polls in 400 ms, shared by the twenty viewers (not twenty times as many).
    const polls = vi.mocked(listEventsAfter).mock.calls.length;
    expect(polls).toBeGreaterThanOrEqual(4);
    expect(polls).toBeLessThanOrEqual(12);
    // Without a bus, the poll alone brings a new event.
    await appendEvent(h.db, run.id, started);
    expect(await until(() => viewers.every((v) => v.cursor === 2))).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
    expect(viewers.every((v) => v.texts.includes(": heartbeat\n\n"))).toBe(true);
    for (const leave of leaves) leave();
    expect(hub.size).toBe(0);
  });

  it("does not poll a run whose events keep coming: only announcements read", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, { type: "run.created", question: "q?", settings: {} });
    const hub = runFanout(h.db, run.id, bus, { pollMs: 500, heartbeatMs: 60_000 });
    const viewer = recorder("v", []);
    const leave = hub.join(viewer);
    expect(await until(() => viewer.cursor === 1)).toBe(true);
    vi.mocked(listEventsAfter).mockClear();
    // An event every 60 ms for 900 ms: the poll, which waits 500 ms after the last read, never comes.
    for (let i = 0; i < 15; i++) {
      await announce(run.id, { type: "phase.started", phase: "brief" });
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(await until(() => viewer.cursor === 16)).toBe(true);
    expect(vi.mocked(listEventsAfter).mock.calls.length).toBeLessThanOrEqual(15);
    expect(viewer.seqs()).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    leave();
  });

  it("reads again after a read only for an event announced meanwhile that the read did not return", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    const log: string[] = [];
    const hub = runFanout(h.db, run.id, bus, idle);
    const viewer = recorder("v", log);
    hub.join(viewer);
    await new Promise((r) => setTimeout(r, 50)); // its first read (nothing yet) is done
    const real = (
      await vi.importActual<typeof import("../../../db/queries/events.ts")>("../../../db/queries/events.ts")
    ).listEventsAfter;

    // Announced during the read, committed before its query: the read returns it, nothing more is read.
    vi.mocked(listEventsAfter).mockClear();
    vi.mocked(listEventsAfter).mockImplementationOnce(async (...args) => {
      await announce(run.id, { type: "phase.started", phase: "brief" });
      return real(...args);
    });
    await announce(run.id, started);
    expect(await until(() => viewer.cursor === 2)).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(vi.mocked(listEventsAfter)).toHaveBeenCalledTimes(1);

    // Committed after the read's query: the viewer is behind it, so it is read for once more.
    vi.mocked(listEventsAfter).mockClear();
    vi.mocked(listEventsAfter).mockImplementationOnce(async (...args) => {
      const rows = await real(...args);
      await announce(run.id, { type: "phase.started", phase: "supervision" });
      return rows;
    });
    await announce(run.id, { type: "phase.completed", phase: "brief", durationMs: 1 });
    expect(await until(() => viewer.cursor === 4)).toBe(true);
    expect(vi.mocked(listEventsAfter)).toHaveBeenCalledTimes(2);
    expect(viewer.seqs()).toEqual([1, 2, 3, 4]);
  });

  it("writes an announcement's rows to viewers right behind them without reading, and reads when one is further behind", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    const log: string[] = [];
    const hub = runFanout(h.db, run.id, bus, idle);
    const live = Array.from({ length: 5 }, (_, i) => recorder(`v${i}`, log));
    for (const v of live) hub.join(v);
    await new Promise((r) => setTimeout(r, 50)); // their first read (nothing yet) is done
    const withRows = async (events: StoredEvent[]) => {
      const rows = await appendEvents(h.db, run.id, events);
      const last = rows[rows.length - 1];
      await bus.publish({ kind: "event", runId: run.id, seq: last.seq, type: last.type, rows });
    };

    vi.mocked(listEventsAfter).mockClear();
    await withRows([started]);
    await withRows([
      { type: "phase.started", phase: "brief" },
      { type: "phase.completed", phase: "brief", durationMs: 1 },
    ]);
    // Written as the announcements were heard, in order, each block in one write: no read.
    expect(live.every((v) => v.cursor === 3)).toBe(true);
    expect(vi.mocked(listEventsAfter)).not.toHaveBeenCalled();
    expect(log.filter((l) => l === "send v0")).toHaveLength(2);

    // A viewer that reconnected after seq 1 is behind the next block: everyone is read for instead.
    const behind = recorder("behind", log, 1);
    const real = vi.mocked(listEventsAfter).getMockImplementation();
    if (!real) throw new Error("listEventsAfter is not wrapped");
    // Its joining read comes back empty (as if it raced the commits), so it is still behind.
    vi.mocked(listEventsAfter).mockImplementation(async (db, runId, after, limit) =>
      after === 1 ? [] : real(db, runId, after, limit),
    );
    hub.join(behind);
    await new Promise((r) => setTimeout(r, 50));
    vi.mocked(listEventsAfter).mockImplementation(real);
    expect(behind.cursor).toBe(1);
    await updateRunStatus(h.db, run.id, { status: "completed" });
    await withRows([completed]);
    const all = [...live, behind];
    expect(await until(() => all.every((v) => v.ended))).toBe(true);
    expect(vi.mocked(listEventsAfter).mock.calls.length).toBeGreaterThanOrEqual(2);
    for (const v of live) expect(v.seqs()).toEqual([1, 2, 3, 4]);
    expect(behind.seqs()).toEqual([2, 3, 4]);
  });

  it("ends its viewers after a terminal event written without a read", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    const hub = runFanout(h.db, run.id, bus, idle);
    const viewer = recorder("v", []);
    hub.join(viewer);
    await new Promise((r) => setTimeout(r, 50));
    vi.mocked(listEventsAfter).mockClear();
    await updateRunStatus(h.db, run.id, { status: "completed" });
    const rows = await appendEvents(h.db, run.id, [started, completed]);
    await bus.publish({ kind: "event", runId: run.id, seq: 2, type: "run.completed", rows });
    expect(await until(() => viewer.ended)).toBe(true);
    expect(viewer.seqs()).toEqual([1, 2]);
    expect(vi.mocked(listEventsAfter)).not.toHaveBeenCalled();
    expect(hub.size).toBe(0);
  });

  it("passes report deltas only to viewers that asked, and a failed read ends only the viewers it was for", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, { type: "run.created", question: "q?", settings: {} });
    const log: string[] = [];
    const hub = runFanout(h.db, run.id, bus, idle);
    const asked = recorder("asked", log, 0, true);
    const plain = recorder("plain", log, 0, false);
    hub.join(asked);
    hub.join(plain);
    expect(await until(() => asked.cursor === 1 && plain.cursor === 1)).toBe(true);
    await bus.publish({ kind: "delta", runId: run.id, text: "Draft" });
    expect(asked.texts.at(-1)).toBe(`event: report.delta\ndata: {"text":"Draft"}\n\n`);
    expect(plain.texts.some((t) => t.includes("report.delta"))).toBe(false);

    // A viewer joining at another cursor reads alone; its read fails, the others go on.
    const real = vi.mocked(listEventsAfter).getMockImplementation();
    if (!real) throw new Error("listEventsAfter is not wrapped");
    vi.mocked(listEventsAfter).mockImplementation(async (db, runId, after, limit) => {
      if (after === 0) throw new Error("connection reset");
      return real(db, runId, after, limit);
    });
    const unlucky = recorder("unlucky", log, 0);
    hub.join(unlucky);
    expect(await until(() => log.includes("fail unlucky: Error: connection reset"))).toBe(true);
    vi.mocked(listEventsAfter).mockImplementation(real);
    expect(hub.size).toBe(2);
    await announce(run.id, started);
    expect(await until(() => asked.cursor === 2 && plain.cursor === 2)).toBe(true);
    expect(unlucky.seqs()).toEqual([]);
  });
});
