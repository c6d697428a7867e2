/**
 * Novelty marks for search results, so the researcher can tell at a glance whether a search
 * brought anything new: `duplicate` (this page is already known in the run), `related` (same
 * domain as, or a near-identical title to, a result of an earlier search) or `new`. It also
 * measures how much a search repeats the previous one — the "last two searches returned similar
 * results" stop rule, made visible.
 */
export type NoveltyMark = "new" | "related" | "duplicate";

export interface NoveltyInput {
  normalizedUrl: string;
  domain: string;
  title: string;
  /** The run already had this page (another search, another researcher, a fetch). */
  knownInRun: boolean;
}

export interface NoveltyVerdict {
  mark: NoveltyMark;
  /** Why it is related: the earlier result's title or domain. */
  relatedTo?: string;
}

export interface SearchNovelty {
  verdicts: NoveltyVerdict[];
  fresh: number;
  related: number;
  duplicates: number;
  /** Share of this search's results that the previous search also returned (0 for the first). */
  overlapWithPrevious: number;
}

/** Titles at or above this word-set similarity count as the same story told twice. */
export const SIMILAR_TITLE = 0.6;

function words(title: string): Set<string> {
  return new Set(
    title
      .toLowerCase()
      .normalize("NFKC")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1),
  );
}

/** Jaccard similarity of the titles' word sets (0..1); empty titles are never similar. */
export function titleSimilarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

/** Share of `current` that also appears in `previous` (0 when `current` is empty). */
export function overlapRatio(previous: readonly string[], current: readonly string[]): number {
  if (current.length === 0) return 0;
  const prev = new Set(previous);
  return current.filter((u) => prev.has(u)).length / current.length;
}

interface Earlier {
  normalizedUrl: string;
  domain: string;
  title: string;
}

/** One researcher's memory of the results it has been shown, search after search. */
export interface NoveltyTracker {
  /** Marks one search's results against everything shown before, then remembers them. */
  assess(results: readonly NoveltyInput[]): SearchNovelty;
}

export function createNoveltyTracker(): NoveltyTracker {
  const earlier: Earlier[] = [];
  let previousUrls: string[] = [];

  const verdictFor = (r: NoveltyInput): NoveltyVerdict => {
    if (r.knownInRun || earlier.some((e) => e.normalizedUrl === r.normalizedUrl))
      return { mark: "duplicate" };
    const sameDomain = r.domain ? earlier.find((e) => e.domain === r.domain) : undefined;
    if (sameDomain) return { mark: "related", relatedTo: sameDomain.domain };
    const similar = earlier.find((e) => titleSimilarity(e.title, r.title) >= SIMILAR_TITLE);
    if (similar) return { mark: "related", relatedTo: similar.title };
    return { mark: "new" };
  };

  return {
    assess(results) {
      // Compared with earlier searches only: several hits from one site in one list are not "related".
      const verdicts = results.map(verdictFor);
      const urls = results.map((r) => r.normalizedUrl);
      const overlapWithPrevious = overlapRatio(previousUrls, urls);
      previousUrls = urls;
      for (const r of results)
        earlier.push({ normalizedUrl: r.normalizedUrl, domain: r.domain, title: r.title });
      const count = (m: NoveltyMark) => verdicts.filter((v) => v.mark === m).length;
      return {
        verdicts,
        fresh: count("new"),
        related: count("related"),
        duplicates: count("duplicate"),
        overlapWithPrevious,
      };
    },
  };
}
