// Test-only changes to run rows that no production path makes: pretending time has passed.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { runs } from "../../db/schema.ts";

/** Sets the run's updated_at `ms` milliseconds into the past (0: now). */
export async function backdateRun(db: Db, runId: string, ms: number): Promise<void> {
  await db
    .update(runs)
    .set({ updatedAt: sql`now() - make_interval(secs => ${ms / 1000})` })
    .where(eq(runs.id, runId));
}
