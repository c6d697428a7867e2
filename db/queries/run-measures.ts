/**
 * The stored rows `npm run eval` measures a finished run by (eval/measure.ts): the run, its report,
 * its citations' verdicts, its rounds, its directives with the sources linked to each, and the
 * payloads of its stored researcher.fetch events.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
  citations,
  directiveSources,
  directives,
  reports,
  runEvents,
  runs,
  sources,
  supervisionRounds,
} from "../schema.ts";

export async function runMeasureRows(db: Db, runId: string) {
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  const [report] = await db.select().from(reports).where(eq(reports.runId, runId));
  const cited = await db
    .select({ support: citations.support })
    .from(citations)
    .where(eq(citations.runId, runId));
  const rounds = await db.select().from(supervisionRounds).where(eq(supervisionRounds.runId, runId));
  return { run, report, cited, rounds };
}

export async function directiveMeasureRows(db: Db, runId: string) {
  const dirs = await db
    .select()
    .from(directives)
    .where(eq(directives.runId, runId))
    .orderBy(asc(directives.ordinal));
  const links = await db
    .select({ directiveId: directiveSources.directiveId })
    .from(directiveSources)
    .innerJoin(sources, eq(sources.id, directiveSources.sourceId))
    .where(eq(sources.runId, runId));
  const fetches = await db
    .select({ payload: runEvents.payload })
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), eq(runEvents.type, "researcher.fetch")));
  return { dirs, links, fetches };
}
