import { stripNulDeep } from "../nul.ts";
import type { SearchResult } from "./types.ts";
import { normalizeUrl } from "./url.ts";

/**
 * Interleaves the providers' ranked lists (each one's 1st, then each one's 2nd, …) so no single
 * provider crowds out the others, keeping the first occurrence of each normalised URL. A later
 * duplicate only fills in what the first lacked (full text, date). U+0000 is dropped from every
 * hit's text (lib/nul.ts): a provider's payload may carry it, and PostgreSQL cannot store it.
 */
export function mergeResults(lists: readonly SearchResult[][], maxResults: number): SearchResult[] {
  const byUrl = new Map<string, SearchResult>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const list of lists) {
      const r = list[rank] && stripNulDeep(list[rank]);
      if (!r) continue;
      const key = normalizeUrl(r.url);
      const seen = byUrl.get(key);
      if (!seen) {
        byUrl.set(key, { ...r });
        continue;
      }
      if (!seen.content && r.content) seen.content = r.content;
      if (!seen.publishedAt && r.publishedAt) seen.publishedAt = r.publishedAt;
      if (!seen.snippet && r.snippet) seen.snippet = r.snippet;
    }
  }
  return [...byUrl.values()].slice(0, maxResults);
}
