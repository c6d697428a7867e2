/**
 * A researcher's stop rules, checked in code rather than left to the model: enough relevant pages
 * read (and reflected on), two consecutive searches that returned much the same results, or the
 * tool budget spent. The tracker keeps the counts the rules need; the think tool's reply shows
 * them to the model as a checklist, and the `researcher.stopped` event carries them.
 */

/** Why a rule in code ended the research (the model's own reasons are in researcher.ts). */
export type StopRule = "relevant_sources" | "similar_searches" | "budget";

export interface StopCounts {
  searches: number;
  /** Distinct sources whose text this researcher was given. */
  sourcesRead: number;
  /** Of those, the ones whose summary or extraction kept something on the topic. */
  relevantSources: number;
  /** Jaccard similarity of the last two searches' result URLs; null before the second search. */
  lastSearchOverlap: number | null;
  toolCalls: number;
  toolBudget: number;
}

export interface StopThresholds {
  relevantSourcesToStop: number;
  similarSearchOverlap: number;
  toolBudget: number;
}

export interface StopRules {
  /** One search carried out, with the normalised URLs of its results (none when it failed). */
  recordSearch(normalizedUrls: readonly string[]): void;
  /** One source's text given to the researcher, and whether it kept findings for the topic. */
  recordRead(sourceId: string, relevant: boolean): void;
  /** Was this source read, and was it relevant (as recorded when it was read)? */
  readOf(sourceId: string): { relevant: boolean } | undefined;
  counts(toolCalls: number): StopCounts;
  /**
   * The rule that ends the research now, if any. The relevance and similarity rules wait for the
   * reflection on the last search or read (`reflected`), so its notes reach compression; the
   * budget is final at once.
   */
  ruleMet(toolCalls: number, reflected: boolean): StopRule | undefined;
  readonly thresholds: StopThresholds;
}

/** Jaccard similarity of two URL sets (0 when either is empty: a failed search repeats nothing). */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size === 0 || sb.size === 0) return 0;
  let shared = 0;
  for (const u of sa) if (sb.has(u)) shared++;
  return shared / (sa.size + sb.size - shared);
}

export function createStopRules(thresholds: StopThresholds): StopRules {
  const searches: string[][] = [];
  const reads = new Map<string, { relevant: boolean }>();

  const lastOverlap = () =>
    searches.length < 2 ? null : jaccard(searches.at(-2) ?? [], searches.at(-1) ?? []);
  const relevantCount = () => [...reads.values()].filter((r) => r.relevant).length;

  return {
    thresholds,
    recordSearch(urls) {
      searches.push([...urls]);
    },
    recordRead(sourceId, relevant) {
      // A page read twice (e.g. from the store) counts once; relevant if either reading was.
      const before = reads.get(sourceId);
      reads.set(sourceId, { relevant: relevant || (before?.relevant ?? false) });
    },
    readOf: (sourceId) => reads.get(sourceId),
    counts: (toolCalls) => ({
      searches: searches.length,
      sourcesRead: reads.size,
      relevantSources: relevantCount(),
      lastSearchOverlap: lastOverlap(),
      toolCalls,
      toolBudget: thresholds.toolBudget,
    }),
    ruleMet(toolCalls, reflected) {
      if (toolCalls >= thresholds.toolBudget) return "budget";
      if (!reflected) return undefined;
      if (relevantCount() >= thresholds.relevantSourcesToStop) return "relevant_sources";
      const overlap = lastOverlap();
      if (overlap !== null && overlap >= thresholds.similarSearchOverlap) return "similar_searches";
      return undefined;
    },
  };
}
