/**
 * What a citation marker in the report knows: the source it points to (by its number in the
 * report's Sources list), the claims that cite it and each claim's support verdict. Built from the
 * run's stored citations, so the numbers are the report's own (renumbered in reading order).
 */

import type { Because, CitationSupport } from "@/lib/research/ui";
import { citedRuns, protectCode, reportBody } from "@/lib/research/ui";

export interface CitedClaim {
  sentence: string;
  support: CitationSupport;
  /** The check's reason in English; `because`, when stored, says it in the page's language. */
  reason: string | null;
  because?: Because | null;
  /** The stored passage the verdict rests on; undefined when it is to be fetched on demand. */
  passage?: string | null;
}

export interface CitationCard {
  number: number;
  sourceId: string;
  title: string;
  domain: string;
  claims: CitedClaim[];
}

/**
 * The report's citations for the renderer. `passagesFrom`: where the owner's page fetches a
 * source's passages lazily (`…/sources/` + sourceId); absent where the passages come with the cards
 * (the share page, which must not call the owner's API).
 */
export interface ReportCitations {
  cards: CitationCard[];
  passagesFrom?: string;
}

interface CitationRow {
  number: number;
  sourceId: string;
  sentence: string;
  support: CitationSupport;
  reason: string | null;
  because?: Because | null;
  passage?: string | null;
}

interface SourceRow {
  id: string;
  title: string | null;
  domain: string | null;
  url: string;
}

/**
 * The owner's report citations: the cards, and the owner's API for their passages. One builder for
 * the stored report rendered on the server and the one rendered in the browser, so both agree.
 */
export function ownerReportCitations(run: {
  id: string;
  citations: readonly CitationRow[];
  sources: readonly SourceRow[];
}): ReportCitations {
  return { cards: citationCards(run.citations, run.sources), passagesFrom: `/api/runs/${run.id}/sources/` };
}

/** One card per cited number, with every claim citing it. */
export function citationCards(
  citations: readonly CitationRow[],
  sources: readonly SourceRow[],
): CitationCard[] {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const cards = new Map<number, CitationCard>();
  for (const c of citations) {
    let card = cards.get(c.number);
    if (!card) {
      const source = byId.get(c.sourceId);
      card = {
        number: c.number,
        sourceId: c.sourceId,
        title: source?.title || source?.url || `Source ${c.number}`,
        domain: source?.domain ?? "",
        claims: [],
      };
      cards.set(c.number, card);
    }
    const { sentence, support, reason, passage } = c;
    const claim = { sentence, support, reason, because: c.because ?? null };
    card.claims.push(passage === undefined ? claim : { ...claim, passage });
  }
  return [...cards.values()].sort((a, b) => a.number - b.number);
}

const STRENGTH: Record<CitationSupport, number> = {
  unsupported: 0,
  partially_supported: 1,
  unchecked: 2,
  supported: 3,
};

/** A source's verdict when the claim is not known: the weakest of its claims (never overstated). */
export function weakestVerdict(card: CitationCard | undefined): CitationSupport | undefined {
  if (!card?.claims.length) return undefined;
  return card.claims.reduce(
    (w, c) => (STRENGTH[c.support] < STRENGTH[w] ? c.support : w),
    card.claims[0].support,
  );
}

/**
 * The verdict of each marker of a number, in reading order: each marker's sentence is read the
 * way the citations were stored (citedRuns over the body without its Sources section), so the
 * marker gets the verdict of its own claim, not only of its source.
 */
export function markerVerdicts(
  markdown: string,
  cards: readonly CitationCard[],
): Map<number, CitationSupport[]> {
  const out = new Map<number, CitationSupport[]>();
  if (!cards.length) return out;
  const byNumber = new Map(cards.map((c) => [c.number, c]));
  const body = reportBody(markdown);
  const { text, restore } = protectCode(body.replace(/\r\n?/g, "\n"));
  for (const run of citedRuns(text)) {
    const sentence = restore(run.sentence);
    for (const n of run.numbers) {
      const card = byNumber.get(n);
      const verdict = card?.claims.find((c) => c.sentence === sentence)?.support ?? weakestVerdict(card);
      if (verdict) out.set(n, [...(out.get(n) ?? []), verdict]);
    }
  }
  return out;
}
