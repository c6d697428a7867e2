import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
  type Citation,
  citations,
  type Report,
  reports,
  researcherResults,
  type Source,
  sources,
} from "../schema.ts";

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

/** Each researched directive's compressed findings, by directive id (directives without findings left out). */
export async function directiveFindings(db: Db, runId: string): Promise<Record<string, string>> {
  const rows = await db
    .select({ directiveId: researcherResults.directiveId, findings: researcherResults.compressedFindings })
    .from(researcherResults)
    .where(eq(researcherResults.runId, runId));
  return Object.fromEntries(rows.flatMap((r) => (r.findings ? [[r.directiveId, r.findings]] : [])));
}

/** The run's citations in report order (number, then when stored). */
export async function listCitations(db: Db, runId: string): Promise<Citation[]> {
  return db
    .select()
    .from(citations)
    .where(eq(citations.runId, runId))
    .orderBy(asc(citations.number), asc(citations.createdAt));
}

/** One source of the run (undefined when the id belongs to no source of this run). */
export async function getRunSource(db: Db, runId: string, sourceId: string): Promise<Source | undefined> {
  const [row] = await db
    .select()
    .from(sources)
    .where(and(eq(sources.runId, runId), eq(sources.id, sourceId)));
  return row;
}

/** The citations that rest on one source of the run. */
export async function listSourceCitations(db: Db, runId: string, sourceId: string): Promise<Citation[]> {
  return db
    .select()
    .from(citations)
    .where(and(eq(citations.runId, runId), eq(citations.sourceId, sourceId)))
    .orderBy(asc(citations.number), asc(citations.createdAt));
}

/**
 * A run's sources as the run view lists them: metadata and whether the text was read in full, in the
 * store's order — without their stored text, which a long run's view would otherwise load whole.
 */
export async function listSourceSummaries(db: Db, runId: string) {
  return db
    .select({
      id: sources.id,
      url: sources.url,
      title: sources.title,
      domain: sources.domain,
      provider: sources.provider,
      quality: sources.quality,
      // The same rule as the engine's store (toSource): text kept, and fetched by us or a provider's full text.
      readInFull: sql<boolean>`(${sources.content} is not null and (${sources.fetchedAt} is not null or ${sources.provider} = 'fetch'))`,
      recheck: sources.recheck,
    })
    .from(sources)
    .where(eq(sources.runId, runId))
    .orderBy(asc(sources.createdAt));
}
