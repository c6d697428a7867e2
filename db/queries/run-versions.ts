/**
 * Versions of a report (runs sharing `version_of`, the first run's id) and what a version's diff
 * reads of a run: its cited sources with a hash of their stored text.
 */
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { citations, type RunStatus, runs, sources } from "../schema.ts";

export interface VersionRow {
  id: string;
  createdAt: Date;
  status: RunStatus;
}

/**
 * The owner's versions of the report whose first run is `firstId`, oldest first: that run and the
 * runs whose version_of is it (ties in time by id, so the order is stable).
 */
export async function listVersions(db: Db, firstId: string, ownerId: string): Promise<VersionRow[]> {
  return db
    .select({ id: runs.id, createdAt: runs.createdAt, status: runs.status })
    .from(runs)
    .where(and(eq(runs.ownerId, ownerId), or(eq(runs.id, firstId), eq(runs.versionOf, firstId))))
    .orderBy(asc(runs.createdAt), asc(runs.id));
}

export interface CitedSourceRow {
  number: number;
  url: string;
  title: string;
  /**
   * An md5 of its stored text (null when no text was kept). Not content_hash: only a refresh's
   * re-check writes that, so comparing it with an earlier version's text would flag every page.
   */
  textHash: string | null;
}

/** The run's cited sources, one row per citation number (the text itself is not loaded). */
export async function listCitedSources(db: Db, runId: string): Promise<CitedSourceRow[]> {
  return db
    .selectDistinct({
      number: citations.number,
      url: sources.url,
      title: sources.title,
      textHash: sql<string | null>`md5(${sources.content})`,
    })
    .from(citations)
    .innerJoin(sources, eq(sources.id, citations.sourceId))
    .where(eq(citations.runId, runId))
    .orderBy(asc(citations.number), asc(sources.url));
}
