/**
 * The Sources tab's filter: a search over title, domain and address, a citation verdict (the
 * weakest of a source's claims, or "not cited") and a quality tier. Pure, so it is tested alone.
 */
import { type CitationSupport, citationSupports, type QualityTier } from "@/lib/research/ui";
import { weakestVerdict } from "../report/citation-data";
import type { RunViewJson, SourceView } from "./types";

export type VerdictFilter = CitationSupport | "uncited" | "";
export interface SourceFilter {
  query: string;
  verdict: VerdictFilter;
  quality: QualityTier | "";
}

export const isVerdictFilter = (v: string): v is VerdictFilter =>
  v === "" || v === "uncited" || (citationSupports as readonly string[]).includes(v);

/** Each cited source's verdict: the weakest of the claims citing it (never overstated). */
export function sourceVerdicts(citations: RunViewJson["citations"]): Map<string, CitationSupport> {
  const claims = new Map<string, { support: CitationSupport; sentence: string; reason: null }[]>();
  for (const c of citations) {
    claims.set(c.sourceId, [
      ...(claims.get(c.sourceId) ?? []),
      { support: c.support as CitationSupport, sentence: "", reason: null },
    ]);
  }
  const out = new Map<string, CitationSupport>();
  for (const [id, list] of claims) {
    const v = weakestVerdict({ number: 0, sourceId: id, title: "", domain: "", claims: list });
    if (v) out.set(id, v);
  }
  return out;
}

/** Whether a source passes the filter. */
export function matchesSource(
  source: SourceView,
  verdict: CitationSupport | undefined,
  filter: SourceFilter,
): boolean {
  const q = filter.query.trim().toLowerCase();
  if (q && ![source.title, source.domain, source.url].some((t) => t?.toLowerCase().includes(q))) return false;
  if (filter.quality && source.quality !== filter.quality) return false;
  if (filter.verdict === "uncited") return verdict === undefined;
  if (filter.verdict) return verdict === filter.verdict;
  return true;
}
