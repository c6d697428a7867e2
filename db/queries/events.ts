import { and, asc, eq, gt } from "drizzle-orm";
import { runEndOf, type StoredEvent, type TerminalEvent } from "../../lib/research/events.ts";
import type { Db } from "../client.ts";
import { type RunEvent, runEvents } from "../schema.ts";
import { endRun, nextEventSeq } from "./runs.ts";

/**
 * Writes a run event as the run's next row: its `type` becomes the type column, the rest of the
 * object the payload. The seq comes from the counter on the run row, bumped in the same
 * transaction as the insert (see nextEventSeq), so seqs are gapless even with parallel researchers.
 * Called with a transaction, the event commits or rolls back with it.
 */
export async function appendEvent(db: Db, runId: string, event: StoredEvent): Promise<RunEvent> {
  const { type, ...payload } = event;
  return db.transaction(async (tx) => {
    const seq = await nextEventSeq(tx as unknown as Db, runId);
    if (seq === undefined) throw new Error(`appendEvent: run ${runId} does not exist`);
    const [row] = await tx.insert(runEvents).values({ runId, seq, type, payload }).returning();
    return row;
  });
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
