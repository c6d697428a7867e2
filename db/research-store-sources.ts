/**
 * The RunStore's sources: one row per normalised URL per run, linked to every directive that found
 * it, with the first text snapshot kept, and the URL strings admitted beyond theirs (page links).
 */
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { DirectiveSourceRecord, RunStore, SourceRecord } from "../lib/research/index.ts";
import type { Db } from "./client.ts";
import { insertPageLinks, listPageLinks, markDirectiveSourceRead, upsertSources } from "./queries/sources.ts";
import { directiveSources, type Source, sources } from "./schema.ts";

export const toSource = (s: Source): SourceRecord => ({
  id: s.id,
  url: s.url,
  normalizedUrl: s.normalizedUrl,
  title: s.title,
  domain: s.domain,
  provider: s.provider,
  quality: s.quality,
  snippet: s.snippet,
  content: s.content,
  readInFull: s.content !== null && (s.fetchedAt !== null || s.provider === "fetch"),
});

/** Sources: one row per normalised URL per run, linked to every directive that found it. */
export function sourceMethods(
  db: Db,
  runId: string,
): Pick<
  RunStore,
  | "addSource"
  | "addSources"
  | "updateSourceContent"
  | "listSources"
  | "getSourceByUrl"
  | "listDirectiveSources"
  | "listSourcesOfDirectives"
  | "markSourceRead"
  | "savePageLinks"
  | "listPageLinks"
> {
  const addSources: RunStore["addSources"] = async (directiveId, inputs) => {
    const results = await upsertSources(db, runId, directiveId, inputs);
    return results.map((r) => ({ source: toSource(r.source), created: r.created }));
  };
  return {
    // One source is a batch of one: the same insert, read-back and link as a search's hits.
    addSource: async (directiveId, input) => (await addSources(directiveId, [input]))[0],
    addSources,
    async updateSourceContent(sourceId, content, title, quality) {
      // "content is null" makes this the first-snapshot-wins rule, safe against a concurrent reader.
      const [updated] = await db
        .update(sources)
        .set({
          content,
          fetchedAt: new Date(),
          ...(title?.trim() ? { title: title.trim() } : {}),
          ...(quality ? { quality } : {}),
        })
        .where(and(eq(sources.id, sourceId), eq(sources.runId, runId), isNull(sources.content)))
        .returning();
      if (updated) return toSource(updated);
      const [row] = await db
        .select()
        .from(sources)
        .where(and(eq(sources.id, sourceId), eq(sources.runId, runId)));
      return row ? toSource(row) : undefined;
    },
    async listSources() {
      const rows = await db
        .select()
        .from(sources)
        .where(eq(sources.runId, runId))
        .orderBy(asc(sources.createdAt));
      return rows.map(toSource);
    },
    async getSourceByUrl(normalizedUrl) {
      const [row] = await db
        .select()
        .from(sources)
        .where(and(eq(sources.runId, runId), eq(sources.normalizedUrl, normalizedUrl)));
      return row ? toSource(row) : undefined;
    },
    async listDirectiveSources(directiveId) {
      const rows = await db
        .select({ s: sources, readAt: directiveSources.readAt })
        .from(directiveSources)
        .innerJoin(sources, eq(directiveSources.sourceId, sources.id))
        .where(and(eq(directiveSources.directiveId, directiveId), eq(sources.runId, runId)))
        // Links written by one statement share their time; their sources were stored in order.
        .orderBy(asc(directiveSources.createdAt), asc(sources.createdAt));
      return rows.map((r) => ({ ...toSource(r.s), read: r.readAt !== null }));
    },
    async listSourcesOfDirectives(directiveIds) {
      const byDirective = new Map(directiveIds.map((id) => [id, [] as DirectiveSourceRecord[]] as const));
      if (!byDirective.size) return byDirective;
      const rows = await db
        .select({ s: sources, directiveId: directiveSources.directiveId, readAt: directiveSources.readAt })
        .from(directiveSources)
        .innerJoin(sources, eq(directiveSources.sourceId, sources.id))
        .where(and(inArray(directiveSources.directiveId, [...byDirective.keys()]), eq(sources.runId, runId)))
        // Links written by one statement share their time; their sources were stored in order.
        .orderBy(asc(directiveSources.createdAt), asc(sources.createdAt));
      for (const r of rows)
        byDirective.get(r.directiveId)?.push({ ...toSource(r.s), read: r.readAt !== null });
      return byDirective;
    },
    async markSourceRead(directiveId, sourceId) {
      await markDirectiveSourceRead(db, directiveId, sourceId);
    },
    async savePageLinks(sourceId, urls) {
      await insertPageLinks(db, runId, sourceId, urls);
    },
    listPageLinks: () => listPageLinks(db, runId),
  };
}
