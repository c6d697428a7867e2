/**
 * Reads many event streams of one run share. When a run's event is announced, every viewer of that
 * run wakes at once and asks the database the same question (the rows after its cursor; the run's
 * status only when there were none). Viewers woken by the same announcement share one query for each: the query starts
 * after that announcement (which comes after its COMMIT), so it sees the event. A viewer woken by
 * its poll timer instead asks on its own (no announcement to anchor a shared answer to).
 */
import type { Db } from "../../db/client.ts";
import { listEventsAfter } from "../../db/queries/events.ts";
import { getRunProgress } from "../../db/queries/runs.ts";
import type { RunEvent } from "../../db/schema.ts";

type Inflight = Map<string, Promise<unknown>>;
const inflightByDb = new WeakMap<Db, Inflight>();

function shared<T>(db: Db, key: string | null, read: () => Promise<T>): Promise<T> {
  if (key === null) return read();
  let inflight = inflightByDb.get(db);
  if (!inflight) {
    inflight = new Map();
    inflightByDb.set(db, inflight);
  }
  const map = inflight;
  const existing = map.get(key) as Promise<T> | undefined;
  if (existing) return existing;
  const p = read().finally(() => map.delete(key));
  map.set(key, p);
  return p;
}

/**
 * The run's events after `afterSeq`. `wokenBy` is the seq of the announcement that woke the caller
 * (null when nothing announced: the caller reads alone). The rows are shared: treat them as read-only.
 */
export function sharedEventsAfter(
  db: Db,
  runId: string,
  afterSeq: number,
  limit: number,
  wokenBy: number | null,
): Promise<RunEvent[]> {
  const key = wokenBy === null ? null : `events:${runId}:${afterSeq}:${limit}:${wokenBy}`;
  return shared(db, key, () => listEventsAfter(db, runId, afterSeq, limit));
}

/** The run's status and last event seq (shared like the events; asked only when no new event came). */
export function sharedRunProgress(db: Db, runId: string, wokenBy: number | null) {
  const key = wokenBy === null ? null : `run:${runId}:${wokenBy}`;
  return shared(db, key, () => getRunProgress(db, runId));
}

/** What one read sends a viewer: its rows' SSE blocks in one chunk, up to the terminal event. */
export interface EncodedRows {
  bytes: Uint8Array;
  /** The seq of the last row sent (the viewer's new cursor). */
  lastSeq: number;
  /** The last row sent is the run's terminal event: the stream ends after it. */
  terminal: boolean;
}

// One encoding of each read's rows, however many viewers send it. Viewers that shared a read got the
// same array, so a burst of events costs one encoding and one socket write per viewer, not one per
// event: a write per viewer per event is what grows the delay to the last of many viewers.
const encoded = new WeakMap<readonly RunEvent[], EncodedRows>();
const encoder = new TextEncoder();

export function encodedRows(
  rows: readonly RunEvent[],
  format: (row: RunEvent) => string,
  isTerminal: (row: RunEvent) => boolean,
): EncodedRows | undefined {
  if (!rows.length) return undefined;
  let out = encoded.get(rows);
  if (!out) {
    const end = rows.findIndex(isTerminal);
    const sent = end < 0 ? rows : rows.slice(0, end + 1);
    out = {
      bytes: encoder.encode(sent.map(format).join("")),
      lastSeq: sent[sent.length - 1].seq,
      terminal: end >= 0,
    };
    encoded.set(rows, out);
  }
  return out;
}
