import { asc, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
  type Directive,
  directives,
  type Report,
  reports,
  type SupervisionRound,
  supervisionRounds,
} from "../schema.ts";

export async function listDirectives(db: Db, runId: string): Promise<Directive[]> {
  return db.select().from(directives).where(eq(directives.runId, runId)).orderBy(asc(directives.ordinal));
}

export async function listSupervisionRounds(db: Db, runId: string): Promise<SupervisionRound[]> {
  return db
    .select()
    .from(supervisionRounds)
    .where(eq(supervisionRounds.runId, runId))
    .orderBy(asc(supervisionRounds.round));
}

export async function getReport(db: Db, runId: string): Promise<Report | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.runId, runId));
  return row;
}
