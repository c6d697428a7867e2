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

// One encoding of each stored event's SSE block, however many viewers send it.
const encoded = new WeakMap<RunEvent, Uint8Array>();

export function encodedOnce(row: RunEvent, encode: (row: RunEvent) => Uint8Array): Uint8Array {
  let bytes = encoded.get(row);
  if (!bytes) {
    bytes = encode(row);
    encoded.set(row, bytes);
  }
  return bytes;
}
