import { eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type Report, reports } from "../schema.ts";

export async function getReport(db: Db, runId: string): Promise<Report | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.runId, runId));
  return row;
}
