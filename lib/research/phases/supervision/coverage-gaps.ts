/**
 * What each directive's evidence still lacks, measured from its coverage row, and the two
 * decisions built on it:
 * - the gate: when every researched directive is clearly covered (at least `gateMinQualitySources`
 *   read HIGH/MEDIUM-quality sources from `gateMinDomains` domains, cited by its findings), the
 *   supervisor's model assessment is skipped;
 * - the fallback: when the model assessment fails, the weakest directives (most gaps first, at most
 *   `heuristicFollowUps`) get a follow-up templated from their evidence-needed and measured gaps.
 * Pure functions over the coverage report.
 */

import { type Because, because } from "../../because.ts";
import type { DirectiveRecord } from "../../store.ts";
import type { DirectiveCoverage } from "./coverage.ts";

export interface GateSettings {
  gateMinQualitySources: number;
  gateMinDomains: number;
}

export interface DirectiveGaps {
  row: DirectiveCoverage;
  gaps: string[];
  /** The same gaps as codes, for the page to say in its language. */
  gapsBecause: Because[];
  /** How badly the evidence falls short: the sum of its gaps' weights (GAP_WEIGHTS). */
  weakness: number;
}

/** A failure outweighs everything; nothing read outweighs every quality gap; quality before spread. */
export const GAP_WEIGHTS = {
  failed: 100,
  unread: 50,
  noHigh: 4,
  fewQuality: 3,
  oneDomain: 2,
  fewDomains: 1,
  uncited: 1,
};

interface Gap {
  text: string;
  weight: number;
  because: Because;
}

const qualitySources = (r: DirectiveCoverage) => r.quality.HIGH + r.quality.MEDIUM;

function measureGaps(row: DirectiveCoverage, settings: GateSettings): Gap[] {
  const W = GAP_WEIGHTS;
  if (row.status === "failed")
    return [{ text: "the research failed", weight: W.failed, because: because("gap_failed") }];
  if (row.sourceCount === 0) {
    const seen = row.seenCount ? ` (${row.seenCount} search hits seen, none opened)` : "";
    const unread = because("gap_unread", { seen: row.seenCount ?? 0 });
    return [{ text: `no source read${seen}`, weight: W.unread, because: unread }];
  }
  const gaps: Gap[] = [];
  const good = qualitySources(row);
  const min = settings.gateMinQualitySources;
  if (row.quality.HIGH === 0 && good < min)
    gaps.push({ text: "no HIGH-quality source", weight: W.noHigh, because: because("gap_no_high") });
  else if (good < min) {
    const text = `only ${good} HIGH/MEDIUM-quality source(s), ${min} wanted`;
    gaps.push({
      text,
      weight: W.fewQuality,
      because: because("gap_few_quality", { count: good, wanted: min }),
    });
  }
  const minDomains = settings.gateMinDomains;
  if (row.uniqueDomains <= 1 && minDomains > 1)
    gaps.push({ text: "one domain only", weight: W.oneDomain, because: because("gap_one_domain") });
  else if (row.qualityDomains < minDomains) {
    const text = `quality sources from ${row.qualityDomains} domain(s), ${minDomains} wanted`;
    const values = { count: row.qualityDomains, wanted: minDomains };
    gaps.push({ text, weight: W.fewDomains, because: because("gap_few_domains", values) });
  }
  if (row.citedCount === 0) {
    const text = "the findings cite none of the sources read";
    gaps.push({ text, weight: W.uncited, because: because("gap_uncited") });
  }
  return gaps;
}

/** The measured gaps of one researched directive, most basic first; empty when it is clearly covered. */
export function directiveGaps(row: DirectiveCoverage, settings: GateSettings): string[] {
  return measureGaps(row, settings).map((g) => g.text);
}

/** Researched directives (done or failed) with their gaps, weakest first (then fewest reads, then order). */
export function rankGaps(rows: readonly DirectiveCoverage[], settings: GateSettings): DirectiveGaps[] {
  return rows
    .filter((r) => r.status === "done" || r.status === "failed")
    .map((row) => {
      const gaps = measureGaps(row, settings);
      return {
        row,
        gaps: gaps.map((g) => g.text),
        gapsBecause: gaps.map((g) => g.because),
        weakness: gaps.reduce((n, g) => n + g.weight, 0),
      };
    })
    .sort(
      (a, b) =>
        b.weakness - a.weakness || a.row.sourceCount - b.row.sourceCount || a.row.ordinal - b.row.ordinal,
    );
}

/**
 * True when there is something researched and every researched directive is clearly covered.
 * A directive still pending (a user's, queued) does not block the gate: it is researched anyway.
 */
export function clearlyCovered(rows: readonly DirectiveCoverage[], settings: GateSettings): boolean {
  const ranked = rankGaps(rows, settings);
  return ranked.length > 0 && ranked.every((r) => r.gaps.length === 0);
}

/** What the researcher is told to look for, by gap: the gap's phrase decides the kind of evidence. */
function remedy(gap: string): string {
  if (gap.startsWith("no HIGH") || gap.includes("HIGH/MEDIUM")) {
    return "official documentation, standards bodies, peer-reviewed papers or primary data";
  }
  if (gap.includes("domain")) return "independent sources from other publishers and organisations";
  if (gap.includes("cite")) return "pages that state the facts explicitly and can be quoted";
  return "pages read in full that answer it directly";
}

export interface HeuristicFollowUp {
  topic: string;
  perspective: string | null;
  evidenceNeeded: string;
  gaps: string[];
  gapsBecause: Because[];
  directiveOrdinal: number;
}

/** One follow-up per weak directive (at most `max`), worded from its gaps so it is more specific than it. */
export function heuristicFollowUps(
  ranked: readonly DirectiveGaps[],
  directives: ReadonlyMap<string, DirectiveRecord>,
  max: number,
): HeuristicFollowUp[] {
  return ranked
    .filter((r) => r.gaps.length > 0)
    .slice(0, Math.max(0, max))
    .map(({ row, gaps, gapsBecause }) => {
      const d = directives.get(row.directiveId);
      const wanted = [...new Set(gaps.map(remedy))].join("; ");
      const earlier = d?.evidenceNeeded?.trim();
      return {
        // The first (most basic) gap names the evidence; the rest go in evidence-needed.
        topic: `${row.topic} — ${remedy(gaps[0] ?? "")}`,
        perspective: d?.perspective ?? null,
        evidenceNeeded: [
          earlier,
          `Gap measured in directive ${row.ordinal}: ${gaps.join("; ")}.`,
          `Read (not only search) ${wanted}.`,
        ]
          .filter(Boolean)
          .join("\n"),
        gaps,
        gapsBecause,
        directiveOrdinal: row.ordinal,
      };
    });
}
