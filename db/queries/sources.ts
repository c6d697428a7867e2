import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { directiveSources, type NewSource, pageLinks, type Source, sources } from "../schema.ts";

/**
 * Stores sources once per run: a researcher finding a URL the run already has gets the existing row
 * back (the first snapshot is kept), so citations never point at duplicates. One round trip each
 * for the insert, the rows that already existed and the directive's links, however many sources:
 * one result per input, in input order. Rows are stored
 * in input order (each a microsecond after the one before, since one statement shares one `now()`),
 * so the run's source order — which numbers its citations — stays the order they were found in.
 */
export async function upsertSources(
  db: Db,
  runId: string,
  directiveId: string,
  inputs: readonly Omit<NewSource, "id" | "createdAt" | "runId">[],
): Promise<{ source: Source; created: boolean }[]> {
  if (!inputs.length) return [];
  const firstOf = new Map<string, number>();
  inputs.forEach((input, i) => {
    if (!firstOf.has(input.normalizedUrl)) firstOf.set(input.normalizedUrl, i);
  });
  const unique = [...firstOf.values()].map((i) => inputs[i]);
  const inserted = await db
    .insert(sources)
    .values(
      unique.map((input, i) => ({
        ...input,
        runId,
        createdAt: sql`now() + ${i} * interval '1 microsecond'`,
      })),
    )
    .onConflictDoNothing()
    .returning();
  const byUrl = new Map<string, { source: Source; created: boolean }>(
    inserted.map((s) => [s.normalizedUrl, { source: s, created: true }]),
  );
  const missing = unique.map((u) => u.normalizedUrl).filter((url) => !byUrl.has(url));
  if (missing.length) {
    const existing = await db
      .select()
      .from(sources)
      .where(and(eq(sources.runId, runId), inArray(sources.normalizedUrl, missing)));
    for (const s of existing) byUrl.set(s.normalizedUrl, { source: s, created: false });
  }
  const results = inputs.map((input, i) => {
    const found = byUrl.get(input.normalizedUrl);
    if (!found) throw new Error(`upsertSources: conflicting row for ${input.normalizedUrl} vanished`);
    // A repeat of an earlier input in the same batch was not created by it.
    return firstOf.get(input.normalizedUrl) === i ? found : { source: found.source, created: false };
  });
  await db
    .insert(directiveSources)
    .values([...byUrl.values()].map((r) => ({ directiveId, sourceId: r.source.id })))
    .onConflictDoNothing();
  return results;
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

/** URL strings admitted for the run (links on a page read, other spellings); each string once per run, its first source kept. */
export async function insertPageLinks(
  db: Db,
  runId: string,
  sourceId: string,
  urls: readonly string[],
): Promise<void> {
  const unique = [...new Set(urls)];
  if (!unique.length) return;
  await db
    .insert(pageLinks)
    .values(unique.map((url) => ({ runId, sourceId, url })))
    .onConflictDoNothing();
}

export async function listPageLinks(db: Db, runId: string): Promise<string[]> {
  const rows = await db
    .select({ url: pageLinks.url })
    .from(pageLinks)
    .where(eq(pageLinks.runId, runId))
    .orderBy(asc(pageLinks.createdAt));
  return rows.map((r) => r.url);
}
