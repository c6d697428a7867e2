/**
 * The one path by which run events are written and announced. An event becomes a run_events row
 * (gapless seq) first; only once that row is committed is it announced on the bus, with exactly
 * the seq it was written with. Two entry points share that code:
 *
 * - withEventTransaction: an API action or the sweeper changes rows and appends events in one
 *   transaction; the events are announced after COMMIT, and not at all if it rolls back.
 * - createRunEventSink: the engine's EventSink for a real run: one write at a time, the events
 *   emitted meanwhile going together in the next. Transient events (report.delta) are only
 *   announced. The terminal event is always the last row: it waits for events still being
 *   written, and nothing is written after it. Its `finish` writes the terminal event together
 *   with the run's terminal status (the engine's store.finishRun).
 */
import type { Db } from "../../db/client.ts";
import { appendEvents, writeRunEnd } from "../../db/queries/events.ts";
import type { RunEvent } from "../../db/schema.ts";
import {
  type EventSink,
  isTransientEvent,
  type ResearchEvent,
  type StoredEvent,
  type TerminalEvent,
  terminalEventTypes,
} from "../research/index.ts";
import type { RunBus } from "./bus.ts";

/** Where an action appends events inside its transaction. */
export interface EventLog {
  /** Writes the event as the run's next row and returns it (with its seq). */
  append(runId: string, event: StoredEvent): Promise<RunEvent>;
  /** Writes the events as the run's next rows, in order, with one statement. */
  appendAll(runId: string, events: readonly StoredEvent[]): Promise<RunEvent[]>;
}

/** Appends through `db` and keeps every row written, to announce once the rows are durable. */
function announcingLog(db: Db) {
  // One announcement per block written, carrying its rows (committed by then, in seq order).
  const blocks: RunEvent[][] = [];
  const log: EventLog = {
    async append(runId, event) {
      const [row] = await log.appendAll(runId, [event]);
      return row;
    },
    async appendAll(runId, events) {
      const rows = await appendEvents(db, runId, events);
      if (rows.length) blocks.push(rows);
      return rows;
    },
  };
  const announce = async (bus: RunBus) => {
    for (const rows of blocks.splice(0)) {
      const last = rows[rows.length - 1];
      await bus.publish({ kind: "event", runId: last.runId, seq: last.seq, type: last.type, rows });
    }
  };
  return { log, announce };
}

/**
 * Runs `work` in one transaction with an EventLog bound to it. The events it appended are
 * announced after the transaction commits, in the order written; if `work` throws, the
 * transaction rolls back, the error propagates and nothing is announced.
 */
export async function withEventTransaction<T>(
  db: Db,
  bus: RunBus,
  work: (tx: Db, events: EventLog) => Promise<T>,
): Promise<T> {
  let pending: ReturnType<typeof announcingLog> | undefined;
  const result = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    pending = announcingLog(t);
    return work(t, pending.log);
  });
  await pending?.announce(bus);
  return result;
}

/** Appends events as one block (committed with their rows) and announces them. */
async function appendAndAnnounce(
  db: Db,
  bus: RunBus,
  runId: string,
  events: readonly StoredEvent[],
): Promise<RunEvent[]> {
  const { log, announce } = announcingLog(db);
  const rows = await log.appendAll(runId, events);
  await announce(bus);
  return rows;
}

/** The engine's sink for one run, which also ends the run (its store's finishRun is this one's). */
export interface RunEventSink extends EventSink {
  /**
   * Waits for the events still being written, then writes the run's terminal status and event in
   * one transaction and announces the event after COMMIT (nothing when it rolls back). Nothing
   * is written through the sink afterwards. False when the run had already ended.
   */
  finish(event: TerminalEvent): Promise<boolean>;
}

/** Runs inside the transaction that ends the run, after its terminal row (e.g. owing a webhook). */
export type RunEndHook = (tx: Db, event: TerminalEvent) => Promise<unknown>;

export function createRunEventSink(db: Db, bus: RunBus, runId: string, onEnd?: RunEndHook): RunEventSink {
  let closed = false;
  // One write of this run's events at a time. Events emitted while it is out wait and go together
  // in the next one, in the order emitted: parallel researchers' events cost one statement, one
  // announcement round and one read by the run's viewers, not one each. Each emit still resolves
  // only once its own events are committed and announced.
  let waiting: { events: StoredEvent[]; settle: { resolve(): void; reject(e: unknown): void }[] } | null =
    null;
  let writing: Promise<void> | null = null;
  const writeWaiting = async () => {
    while (waiting) {
      const block = waiting;
      waiting = null;
      try {
        await appendAndAnnounce(db, bus, runId, block.events);
        for (const s of block.settle) s.resolve();
      } catch (error) {
        for (const s of block.settle) s.reject(error);
      }
    }
    writing = null;
  };
  const store = (events: readonly StoredEvent[]) =>
    new Promise<void>((resolve, reject) => {
      waiting ??= { events: [], settle: [] };
      waiting.events.push(...events);
      waiting.settle.push({ resolve, reject });
      writing ??= writeWaiting();
    });
  // The terminal event waits for the events still being written, so it comes last.
  const written = async () => {
    while (writing) await writing;
  };

  return {
    async finish(event) {
      closed = true;
      await written();
      return withEventTransaction(db, bus, async (tx, log) => {
        const ended = await writeRunEnd(tx, runId, event, (e) => log.append(runId, e));
        if (ended) await onEnd?.(tx, event);
        return ended;
      });
    },
    async emit(event: ResearchEvent) {
      if (closed) return;
      if (isTransientEvent(event)) {
        await bus.publish({ kind: "delta", runId, text: event.text });
        return;
      }
      if (terminalEventTypes.has(event.type)) {
        closed = true;
        await written();
        await appendAndAnnounce(db, bus, runId, [event]);
        return;
      }
      await store([event]);
    },
    async emitMany(events) {
      if (closed || !events.length) return;
      // A terminal event among them keeps its own path: it must be the run's last row.
      if (events.some((e) => terminalEventTypes.has(e.type))) {
        for (const e of events) await this.emit(e);
        return;
      }
      await store(events);
    },
  };
}
