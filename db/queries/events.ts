import { and, asc, eq, gt, sql } from "drizzle-orm";
import { runEndOf, type StoredEvent, type TerminalEvent } from "../../lib/research/ui.ts";
import type { Db } from "../client.ts";
import { type RunEvent, runEvents, runs } from "../schema.ts";
import { endRun } from "./runs.ts";

/**
 * Writes a run event as the run's next row: its `type` becomes the type column, the rest of the
 * object the payload (a block of one: see appendEvents). Called with a transaction, the event
 * commits or rolls back with it.
 */
export async function appendEvent(db: Db, runId: string, event: StoredEvent): Promise<RunEvent> {
  const [row] = await appendEvents(db, runId, [event]);
  return row;
}

function toRunEvent(row: Record<string, unknown>): RunEvent {
  return {
    runId: String(row.run_id),
    seq: Number(row.seq),
    type: String(row.type),
    payload: (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as Record<
      string,
      unknown
    >,
    createdAt: toDate(row.created_at),
  };
}

/** A timestamptz from a raw row: a Date (PGlite) or PostgreSQL's text form ("2026-11-25 09:10:00.12+00"). */
function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const iso = String(value)
    .replace(" ", "T")
    .replace(/([+-]\d\d)$/, "$1:00");
  return new Date(iso);
}

/**
 * Writes events of one run as its next rows, in the given order, with one statement: the counter
 * on the run row is bumped by their number and each row takes its place in that block. The bump
 * locks the run's row until the statement commits, so seqs are gapless with parallel researchers.
 * One statement rather than a transaction per event: a run writes hundreds of events, each on the
 * path between two of its model calls (a search's `source.added` events go as one block).
 * An event's time is when its row was written (clock_timestamp), not when its transaction began
 * (now()): inside a longer transaction (a run's end, an API action) that is the nearer to the COMMIT
 * that makes it visible, and it follows seq order (taken after the run row's lock).
 */
export async function appendEvents(
  db: Db,
  runId: string,
  events: readonly StoredEvent[],
): Promise<RunEvent[]> {
  if (!events.length) return [];
  const items = events.map(({ type, ...payload }) => ({ type, payload }));
  const result = await db.execute(sql`
    with next as (
      update ${runs} set last_event_seq = last_event_seq + ${items.length} where id = ${runId}
      returning last_event_seq
    )
    insert into ${runEvents} (run_id, seq, type, payload, created_at)
    select ${runId}, next.last_event_seq - ${items.length} + e.ord::int, e.item->>'type', e.item->'payload',
      clock_timestamp()
    from next, jsonb_array_elements(${JSON.stringify(items)}::jsonb) with ordinality as e(item, ord)
    returning run_id, seq, type, payload, created_at`);
  const rows = resultRows(result).map(toRunEvent);
  if (rows.length !== events.length) throw new Error(`appendEvents: run ${runId} does not exist`);
  return rows.sort((a, b) => a.seq - b.seq);
}

/** The rows of a raw `execute`: postgres.js answers an array, PGlite an object with `rows`. */
function resultRows(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as Record<
    string,
    unknown
  >[];
}

/** Events after `afterSeq` in order: the replay half of the SSE stream. */
export async function listEventsAfter(
  db: Db,
  runId: string,
  afterSeq = 0,
  limit = 1000,
): Promise<RunEvent[]> {
  return db
    .select()
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), gt(runEvents.seq, afterSeq)))
    .orderBy(asc(runEvents.seq))
    .limit(limit);
}

export async function getEvent(db: Db, runId: string, seq: number): Promise<RunEvent | undefined> {
  const [row] = await db
    .select()
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), eq(runEvents.seq, seq)));
  return row;
}

/**
 * Ends the run with its terminal event, inside the caller's transaction: the status the event
 * implies, then the event through `append` (by default appendEvent; the worker's sink passes its
 * log, which announces after COMMIT). False, writing nothing, when the run had already ended.
 */
export async function writeRunEnd(
  tx: Db,
  runId: string,
  event: TerminalEvent,
  append: (event: TerminalEvent) => Promise<unknown> = (e) => appendEvent(tx, runId, e),
): Promise<boolean> {
  if (!(await endRun(tx, runId, runEndOf(event)))) return false;
  await append(event);
  return true;
}
