// Test-only changes to run rows that no production path makes: pretending time has passed, breaking an event write.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { runEvents, runs } from "../../db/schema.ts";

/** Sets the run's updated_at `ms` milliseconds into the past (0: now). */
export async function backdateRun(db: Db, runId: string, ms: number): Promise<void> {
  await db
    .update(runs)
    .set({ updatedAt: sql`now() - make_interval(secs => ${ms / 1000})` })
    .where(eq(runs.id, runId));
}

/**
 * Writes a stray event row at `seq` without bumping the run's counter, so the event that is
 * handed that seq next fails to insert: a failure injected exactly at one event write.
 */
export async function occupyEventSeq(db: Db, runId: string, seq: number): Promise<void> {
  await db.insert(runEvents).values({ runId, seq, type: "test.occupied", payload: {} });
}

/** Removes what occupyEventSeq wrote: the injected failure is over. */
export async function freeEventSeq(db: Db, runId: string, seq: number): Promise<void> {
  await db.delete(runEvents).where(and(eq(runEvents.runId, runId), eq(runEvents.seq, seq)));
}

/** Makes `runId` a later version of the report whose first run is `firstId` (as a refresh would). */
export async function markVersionOf(db: Db, runId: string, firstId: string): Promise<void> {
  await db.update(runs).set({ versionOf: firstId }).where(eq(runs.id, runId));
}
