import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type RunEvent, runEvents, runs } from "../schema.ts";

/**
 * Appends an event with the run's next seq. The counter on the run row is bumped in the same
 * transaction as the insert: the row lock serialises concurrent writers, so seqs are gapless even
 * with parallel researchers, and a rolled-back insert gives its number back.
 */
export async function appendEvent(
  db: Db,
  runId: string,
  type: string,
  payload: Record<string, unknown> = {},
): Promise<RunEvent> {
  return db.transaction(async (tx) => {
    const [counter] = await tx
      .update(runs)
      .set({ lastEventSeq: sql`${runs.lastEventSeq} + 1` })
      .where(eq(runs.id, runId))
      .returning({ seq: runs.lastEventSeq });
    if (!counter) throw new Error(`appendEvent: run ${runId} does not exist`);
    const [row] = await tx.insert(runEvents).values({ runId, seq: counter.seq, type, payload }).returning();
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
