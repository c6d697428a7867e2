/**
 * The coverage figures the run page charts and tabulates, taken from the API's values as they are
 * (the chart, the table and the e2e test all read these rows). One coverage figure: the share the
 * engine measures from the sources read (the heuristic confidence), per round after the round ran.
 */
import type { QualityTier } from "@/lib/research/ui";
import { researcherNumbers } from "./activity-model";
import type { RunViewJson, SupervisionRoundView } from "./types";

export interface DirectiveCoverageRow {
  directiveId: string;
  label: string;
  topic: string;
  /** Sources whose text was read for the directive (the API's `sourceCount`). */
  read: number;
  /** Search hits linked to it, read or not (`seenCount`; absent in older rounds). */
  seen: number | null;
  domains: number;
  quality: Record<QualityTier, number>;
  cited: number | null;
}

export function directiveCoverageRows(
  run: Pick<RunViewJson, "coverage" | "directives">,
): DirectiveCoverageRow[] {
  const numbers = researcherNumbers(run.directives);
  return (run.coverage?.directives ?? []).map((d) => ({
    directiveId: d.directiveId,
    label: numbers.has(d.directiveId) ? `Researcher ${numbers.get(d.directiveId)}` : `Directive ${d.ordinal}`,
    topic: d.topic,
    read: d.sourceCount,
    seen: d.seenCount ?? null,
    domains: d.uniqueDomains,
    quality: {
      HIGH: d.quality?.HIGH ?? 0,
      MEDIUM: d.quality?.MEDIUM ?? 0,
      LOW: d.quality?.LOW ?? 0,
      UNKNOWN: d.quality?.UNKNOWN ?? 0,
    },
    cited: d.citedCount ?? null,
  }));
}

export interface RoundCoverageRow {
  round: number;
  /** 0–1; null while the round runs (its coverage is measured when it ends). */
  coverage: number | null;
  newSources: number;
}

/** The coverage measured after a round (coverageAfter's confidence); null until the round ended. */
export function roundCoverage(r: Pick<SupervisionRoundView, "coverageAfter">): number | null {
  const after = r.coverageAfter as { heuristic?: { confidence?: unknown } } | null;
  const c = after?.heuristic?.confidence;
  return typeof c === "number" ? c : null;
}

export function roundCoverageRows(history: readonly SupervisionRoundView[]): RoundCoverageRow[] {
  return history.map((r) => ({ round: r.round, coverage: roundCoverage(r), newSources: r.newSources }));
}

export const percent = (x: number) => `${Math.round(x * 100)}%`;

/** "2 high, 1 medium quality" (tiers with none left out). */
export function qualityWords(q: Record<QualityTier, number>): string {
  const parts = (
    [
      ["HIGH", "high"],
      ["MEDIUM", "medium"],
      ["LOW", "low"],
      ["UNKNOWN", "unknown"],
    ] as const
  )
    .filter(([k]) => q[k] > 0)
    .map(([k, w]) => `${q[k]} ${w}`);
  return parts.length ? `${parts.join(", ")} quality` : "none";
}
