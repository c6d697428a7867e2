/**
 * Retrieval over a run's stored source text for follow-up questions: each read source cut into the
 * passages the citation check also uses (excerptWindows), indexed with PostgreSQL's own full-text
 * search over our segmented words ('simple' configuration: no stemming, any language) and ranked
 * with pg_trgm's word similarity besides. A run is indexed once, on its first question, so runs
 * finished before this existed need nothing else.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { excerptWindows } from "../../lib/research/index.ts";
import { queryTerms, segmentedText, words } from "../../lib/text/tokens.ts";
import type { Db } from "../client.ts";
import { passageIndexes, sourcePassages, sources } from "../schema.ts";

export interface PassageHit {
  sourceId: string;
  ordinal: number;
  text: string;
  /** Share of the question's content words that occur in the passage (0–1). */
  coverage: number;
  /** Full-text rank plus trigram word similarity: the order among passages of equal coverage. */
  rank: number;
}

const INSERT_BATCH = 200;
/** Candidates the database ranks before coverage is computed for them. */
const CANDIDATES = 40;

/** Cuts the run's read sources into passages, once; concurrent first questions index it once too. */
export async function indexRunPassages(db: Db, runId: string): Promise<number> {
  const [done] = await db.select().from(passageIndexes).where(eq(passageIndexes.runId, runId));
  if (done) return done.passages;
  const read = await db
    .select({ id: sources.id, content: sources.content })
    .from(sources)
    .where(and(eq(sources.runId, runId), sql`length(trim(coalesce(${sources.content}, ''))) > 0`));
  const rows = read.flatMap((s) =>
    excerptWindows(s.content ?? "").windows.map((w) => ({
      runId,
      sourceId: s.id,
      ordinal: w.start,
      text: w.text,
      words: segmentedText(w.text),
    })),
  );
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await tx
        .insert(sourcePassages)
        .values(rows.slice(i, i + INSERT_BATCH))
        .onConflictDoNothing();
    }
    await tx.insert(passageIndexes).values({ runId, passages: rows.length }).onConflictDoNothing();
  });
  return rows.length;
}

/** `'a' | 'b'`: any of the words, each quoted so no word is read as tsquery syntax. */
function anyWordQuery(terms: readonly string[]): string {
  return terms.map((t) => `'${t.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`).join(" | ");
}

/**
 * The run's passages that share words with `question`, best first: most of the question's content
 * words, then full-text rank plus pg_trgm word similarity. Only passages with at least `minCoverage`
 * of the question's words are returned.
 */
export async function searchRunPassages(
  db: Db,
  runId: string,
  question: string,
  opts: { limit: number; minCoverage: number },
): Promise<PassageHit[]> {
  const terms = queryTerms(question);
  if (!terms.length) return [];
  const query = sql`to_tsquery('simple', ${anyWordQuery(terms)})`;
  const asked = terms.join(" ");
  const rows = await db
    .select({
      sourceId: sourcePassages.sourceId,
      ordinal: sourcePassages.ordinal,
      text: sourcePassages.text,
      words: sourcePassages.words,
      rank: sql<number>`ts_rank_cd(${sourcePassages.search}, ${query}) + word_similarity(${asked}, ${sourcePassages.words})`.as(
        "rank",
      ),
    })
    .from(sourcePassages)
    .where(and(eq(sourcePassages.runId, runId), sql`${sourcePassages.search} @@ ${query}`))
    .orderBy(desc(sql`rank`))
    .limit(CANDIDATES);
  return rows
    .map((r) => {
      const present = new Set(words(r.words));
      const coverage = terms.filter((t) => present.has(t)).length / terms.length;
      return { sourceId: r.sourceId, ordinal: r.ordinal, text: r.text, coverage, rank: Number(r.rank) };
    })
    .filter((h) => h.coverage >= opts.minCoverage)
    .sort((a, b) => b.coverage - a.coverage || b.rank - a.rank)
    .slice(0, opts.limit);
}
