import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { directiveSources, type NewSource, pageLinks, type Source, sources } from "../schema.ts";

/**
 * Stores a source once per run: a second researcher finding the same URL gets the existing row
 * back (and the first snapshot is kept), so citations never point at duplicates.
 */
export async function upsertSource(
  db: Db,
  input: Omit<NewSource, "id" | "createdAt">,
): Promise<{ source: Source; created: boolean }> {
  const [inserted] = await db.insert(sources).values(input).onConflictDoNothing().returning();
  if (inserted) return { source: inserted, created: true };
  const [existing] = await db
    .select()
    .from(sources)
    .where(and(eq(sources.runId, input.runId), eq(sources.normalizedUrl, input.normalizedUrl)));
  if (!existing) throw new Error(`upsertSource: conflicting row for ${input.normalizedUrl} vanished`);
  return { source: existing, created: false };
}

export async function linkDirectiveSource(db: Db, directiveId: string, sourceId: string): Promise<void> {
  await db.insert(directiveSources).values({ directiveId, sourceId }).onConflictDoNothing();
}

/** The link with its first read time; a link read before keeps that time. */
export async function markDirectiveSourceRead(db: Db, directiveId: string, sourceId: string): Promise<void> {
  await db
    .insert(directiveSources)
    .values({ directiveId, sourceId, readAt: new Date() })
    .onConflictDoUpdate({
      target: [directiveSources.directiveId, directiveSources.sourceId],
      set: { readAt: sql`coalesce(${directiveSources.readAt}, excluded.read_at)` },
    });
}

export async function listSources(db: Db, runId: string): Promise<Source[]> {
  return db.select().from(sources).where(eq(sources.runId, runId)).orderBy(asc(sources.createdAt));
}

export async function countSources(db: Db, runId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sources)
    .where(eq(sources.runId, runId));
  return row?.n ?? 0;
}

/** Links found on a page the run read; one row per link per run, the first page that had it kept. */
export async function insertPageLinks(
  db: Db,
  runId: string,
  sourceId: string,
  normalizedUrls: readonly string[],
): Promise<void> {
  const unique = [...new Set(normalizedUrls)];
  if (!unique.length) return;
  await db
    .insert(pageLinks)
    .values(unique.map((normalizedUrl) => ({ runId, sourceId, normalizedUrl })))
    .onConflictDoNothing();
}

export async function listPageLinks(db: Db, runId: string): Promise<string[]> {
  const rows = await db
    .select({ url: pageLinks.normalizedUrl })
    .from(pageLinks)
    .where(eq(pageLinks.runId, runId))
    .orderBy(asc(pageLinks.createdAt));
  return rows.map((r) => r.url);
}
