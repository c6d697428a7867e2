import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { LibrarySearchBackend } from "../../lib/search/types.ts";
import type { Db } from "../client.ts";
import { libraryDocuments } from "../schema.ts";

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
  const [row] = await db.insert(libraryDocuments).values(input).returning(summaryColumns);
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

// Dropped from the any-term fallback query only: with the 'simple' configuration they are
// ordinary words, and "the" alone must not make a document match.
const STOP_WORDS = new Set(
  (
    "a an and are as at be by for from how in is it of on or that the this to was were what when where " +
    "which who why with der die das den dem des ein eine einer eines einem und oder ist sind in im mit " +
    "von zu zum zur auf für fuer wie was wer warum nicht le la les un une des et ou est de du en el los " +
    "las y o"
  ).split(" "),
);

/**
 * websearch_to_tsquery ANDs every word, and researchers' queries are natural language, so an
 * all-words match is often empty. The fallback matches any significant word while keeping the
 * query's exclusions (-word, -"a phrase").
 */
function anyTermQuery(query: string): SQL {
  const tokens = query.match(/-?"[^"]*"|\S+/g) ?? [];
  const excluded = tokens.filter((t) => t.startsWith("-") && t.length > 1);
  const words = tokens.filter((t) => !t.startsWith("-") && t.toLowerCase() !== "or");
  const significant = words.filter((w) => !STOP_WORDS.has(w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")));
  const positive = (significant.length > 0 ? significant : words).join(" or ");
  return sql`(websearch_to_tsquery('simple', ${positive}) && websearch_to_tsquery('simple', ${excluded.join(" ")}))`;
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
  const all = sql`websearch_to_tsquery('simple', ${query})`;
  const anyTerms = anyTermQuery(query);
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
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}

/** The database side of lib/search's library provider: full-text search over one owner's library. */
export function libraryBackend(db: Db): LibrarySearchBackend {
  return { search: (ownerId, query, limit) => searchLibrary(db, ownerId, query, limit) };
}
