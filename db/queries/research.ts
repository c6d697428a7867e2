import { eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type Report, reports, researcherResults } from "../schema.ts";

export async function getReport(db: Db, runId: string): Promise<Report | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.runId, runId));
  return row;
}

/**
 * Why each finished researcher of the run stopped, by directive id (only the small columns: the
 * stored histories are not loaded for this).
 */
export async function researcherStopReasons(db: Db, runId: string): Promise<Map<string, string | null>> {
  const rows = await db
    .select({ directiveId: researcherResults.directiveId, stopReason: researcherResults.stopReason })
    .from(researcherResults)
    .where(eq(researcherResults.runId, runId));
  return new Map(rows.map((r) => [r.directiveId, r.stopReason]));
}
