/**
 * A refresh's re-check of cited sources: the new version's copies of the sources its previous
 * version's report cited are marked `pending` when it is seeded, and its job fetches them again
 * (lib/jobs/source-recheck.ts) and records what it found, so a retried job re-checks only what is
 * still pending.
 */
import { and, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../client.ts";
import { citations, type Source, type SourceRecheck, sources } from "../schema.ts";

/** Marks `toRunId`'s sources that `fromRunId`'s report cited (same normalised URL) as pending; returns how many. */
export async function markCitedForRecheck(db: Db, fromRunId: string, toRunId: string): Promise<number> {
  const cited = await db
    .selectDistinct({ normalizedUrl: sources.normalizedUrl })
    .from(citations)
    .innerJoin(sources, eq(sources.id, citations.sourceId))
    .where(eq(citations.runId, fromRunId));
  // A copy of an earlier refresh's row carries that refresh's verdict: this refresh's starts blank.
  await db.update(sources).set({ recheck: null }).where(eq(sources.runId, toRunId));
  if (!cited.length) return 0;
  const marked = await db
    .update(sources)
    .set({ recheck: "pending" })
    .where(
      and(
        eq(sources.runId, toRunId),
        inArray(
          sources.normalizedUrl,
          cited.map((c) => c.normalizedUrl),
        ),
      ),
    )
    .returning({ id: sources.id });
  return marked.length;
}

export type PendingRecheck = Pick<Source, "id" | "url" | "content">;

/** The run's sources still to re-check, in the order they were first stored. */
export async function listPendingRechecks(db: Db, runId: string): Promise<PendingRecheck[]> {
  return db
    .select({ id: sources.id, url: sources.url, content: sources.content })
    .from(sources)
    .where(and(eq(sources.runId, runId), eq(sources.recheck, "pending")))
    .orderBy(sources.createdAt);
}

export interface RecheckResult {
  status: Exclude<SourceRecheck, "pending">;
  /** The hash of the text fetched again (null when the page is gone). */
  contentHash: string | null;
  /** The new text, for a changed page; a gone page keeps no text (it is not citable in this version). */
  content?: string | null;
}

/** Records one source's re-check; only while still pending, so a re-run of the step changes nothing. */
export async function saveRecheck(db: Db, runId: string, sourceId: string, r: RecheckResult): Promise<void> {
  const text =
    r.status === "changed"
      ? { content: r.content ?? null, fetchedAt: new Date() }
      : r.status === "gone"
        ? { content: null, fetchedAt: null }
        : {};
  await db
    .update(sources)
    .set({ recheck: r.status, contentHash: r.contentHash, ...text })
    .where(and(eq(sources.id, sourceId), eq(sources.runId, runId), eq(sources.recheck, "pending")));
}

/** How many of the run's sources were re-checked to each verdict. */
export async function recheckCounts(db: Db, runId: string) {
  const rows = await db
    .select({ recheck: sources.recheck, n: count() })
    .from(sources)
    .where(and(eq(sources.runId, runId), inArray(sources.recheck, ["unchanged", "changed", "gone"])))
    .groupBy(sources.recheck);
  const of = (status: SourceRecheck) => rows.find((r) => r.recheck === status)?.n ?? 0;
  return { unchanged: of("unchanged"), changed: of("changed"), gone: of("gone") };
}
