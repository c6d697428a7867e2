import { and, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { LibrarySearchBackend } from "../../lib/search/types.ts";
import { segmentedText } from "../../lib/text/tokens.ts";
import type { Db } from "../client.ts";
import { libraryDocuments } from "../schema.ts";
import { libraryQuery, markedSnippet } from "./library-query.ts";

export interface NewLibraryDocument {
  ownerId: string;
  title: string;
  sourceUrl?: string | null;
  mimeType: string;
  content: string;
}

/** A document without its (possibly megabytes of) text: what lists show. */
export interface LibraryDocumentSummary {
  id: string;
  title: string;
  sourceUrl: string | null;
  mimeType: string;
  /** Length of the stored text in characters. */
  chars: number;
  createdAt: Date;
  /** Shared by an admin with every account. */
  shared: boolean;
  ownerId: string;
}

export interface LibraryDocumentFull extends LibraryDocumentSummary {
  content: string;
}

export interface LibrarySearchHit extends LibraryDocumentFull {
  /** Excerpt with the matched terms marked **like this**. */
  snippet: string;
  /** In [1, 2) when every term matched, in [0, 1) when only some did. */
  score: number;
}

const summaryColumns = {
  id: libraryDocuments.id,
  title: libraryDocuments.title,
  sourceUrl: libraryDocuments.sourceUrl,
  mimeType: libraryDocuments.mimeType,
  chars: sql<number>`length(${libraryDocuments.content})::int`.as("chars"),
  createdAt: libraryDocuments.createdAt,
  shared: libraryDocuments.shared,
  ownerId: libraryDocuments.ownerId,
};

export async function insertLibraryDocument(
  db: Db,
  input: NewLibraryDocument,
): Promise<LibraryDocumentSummary> {
  const words = documentWords(input.title, input.content);
  const [row] = await db
    .insert(libraryDocuments)
    .values({ ...input, words })
    .returning(summaryColumns);
  return row;
}

export async function listLibraryDocuments(
  db: Db,
  ownerId: string,
  limit = 500,
): Promise<LibraryDocumentSummary[]> {
  return db
    .select(summaryColumns)
    .from(libraryDocuments)
    .where(visibleDocuments(ownerId))
    .orderBy(desc(libraryDocuments.createdAt))
    .limit(limit);
}

/** An owner sees their own documents and those an admin shared with everyone. */
export function visibleDocuments(ownerId: string): SQL {
  return or(eq(libraryDocuments.ownerId, ownerId), eq(libraryDocuments.shared, true)) as SQL;
}

/** Shares or unshares one of the owner's documents with every account (admins only, checked by the caller). */
export async function setDocumentShared(
  db: Db,
  id: string,
  ownerId: string,
  shared: boolean,
): Promise<boolean> {
  const rows = await db
    .update(libraryDocuments)
    .set({ shared })
    .where(and(eq(libraryDocuments.id, id), eq(libraryDocuments.ownerId, ownerId)))
    .returning({ id: libraryDocuments.id });
  return rows.length > 0;
}

/** Another owner's unshared document is indistinguishable from a missing one. */
export async function getLibraryDocument(
  db: Db,
  id: string,
  ownerId: string,
): Promise<LibraryDocumentFull | undefined> {
  const [row] = await db
    .select({ ...summaryColumns, content: libraryDocuments.content })
    .from(libraryDocuments)
    .where(and(eq(libraryDocuments.id, id), visibleDocuments(ownerId)));
  return row;
}

/** True when a document of this owner was deleted. */
export async function deleteLibraryDocument(db: Db, id: string, ownerId: string): Promise<boolean> {
  const rows = await db
    .delete(libraryDocuments)
    .where(and(eq(libraryDocuments.id, id), eq(libraryDocuments.ownerId, ownerId)))
    .returning({ id: libraryDocuments.id });
  return rows.length > 0;
}

const documentWords = (title: string, content: string) => segmentedText(`${title}\n${content}`);

// A search segments this many documents stored before segmentation (words null), so a library
// from an older version becomes searchable by its words as it is used, without a long migration.
const SEGMENT_BATCH = 50;

async function segmentUnindexed(db: Db, ownerId: string): Promise<void> {
  const rows = await db
    .select({ id: libraryDocuments.id, title: libraryDocuments.title, content: libraryDocuments.content })
    .from(libraryDocuments)
    .where(and(isNull(libraryDocuments.words), visibleDocuments(ownerId)))
    .limit(SEGMENT_BATCH);
  for (const r of rows) {
    await db
      .update(libraryDocuments)
      .set({ words: documentWords(r.title, r.content) })
      .where(eq(libraryDocuments.id, r.id));
  }
}

const HEADLINE_OPTIONS =
  'StartSel=**, StopSel=**, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "';

/**
 * Full-text search over one owner's library. Documents containing every query word rank first
 * (ts_rank_cd cover density, length-normalised), then documents containing only some; snippets
 * are computed for the returned rows only, since ts_headline re-parses the whole text.
 */
export async function searchLibrary(
  db: Db,
  ownerId: string,
  query: string,
  limit: number,
): Promise<LibrarySearchHit[]> {
  await segmentUnindexed(db, ownerId);
  const q = libraryQuery(query);
  if (!q.all) return [];
  const all = sql`websearch_to_tsquery('simple', ${q.all})`;
  // websearch ANDs every word, and researchers' queries are natural language, so an all-words
  // match is often empty: the fallback matches any significant word, keeping the exclusions.
  const anyTerms = sql`(websearch_to_tsquery('simple', ${q.any}) && websearch_to_tsquery('simple', ${q.excluded}))`;
  const doc = libraryDocuments.search;
  const ranked = db
    .select({
      ...summaryColumns,
      content: libraryDocuments.content,
      score: sql<number>`(case when ${doc} @@ ${all} then 1 + ts_rank_cd(${doc}, ${all}, 33)
        else ts_rank_cd(${doc}, ${anyTerms}, 33) end)`.as("score"),
    })
    .from(libraryDocuments)
    .where(and(visibleDocuments(ownerId), or(sql`${doc} @@ ${all}`, sql`${doc} @@ ${anyTerms}`)))
    .orderBy(sql`score desc`, desc(libraryDocuments.createdAt))
    .limit(limit)
    .as("ranked");
  const rows = await db
    .select({
      id: ranked.id,
      title: ranked.title,
      sourceUrl: ranked.sourceUrl,
      mimeType: ranked.mimeType,
      chars: ranked.chars,
      createdAt: ranked.createdAt,
      shared: ranked.shared,
      ownerId: ranked.ownerId,
      content: ranked.content,
      score: ranked.score,
      snippet: sql<string>`ts_headline('simple', ${ranked.content}, ${anyTerms}, ${HEADLINE_OPTIONS})`,
    })
    .from(ranked)
    .orderBy(desc(ranked.score), desc(ranked.createdAt));
  return rows.map((r) => ({
    ...r,
    score: Number(r.score),
    snippet: r.snippet.includes("**") ? r.snippet : markedSnippet(r.content, q.terms),
  }));
}

/** The database side of lib/search's library provider: full-text search over one owner's library. */
export function libraryBackend(db: Db): LibrarySearchBackend {
  return { search: (ownerId, query, limit) => searchLibrary(db, ownerId, query, limit) };
}
