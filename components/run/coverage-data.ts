/**
 * The coverage figures the run page charts and tabulates, taken from the API's values as they are
 * (the chart, the table and the e2e test all read these rows). One coverage figure: the share the
 * engine measures from the sources read (the heuristic confidence), per round after the round ran.
 */
import type { QualityTier } from "@/lib/research/ui";
import { researcherNumbers } from "./activity-model";
import type { Translate } from "./run-words";
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
  t: Translate,
): DirectiveCoverageRow[] {
  const numbers = researcherNumbers(run.directives);
  return (run.coverage?.directives ?? []).map((d) => ({
    directiveId: d.directiveId,
    label: numbers.has(d.directiveId)
      ? t("run.coverage.researcherN", { n: numbers.get(d.directiveId) ?? 0 })
      : t("run.coverage.directiveN", { n: d.ordinal }),
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

const tiers = ["HIGH", "MEDIUM", "LOW", "UNKNOWN"] as const;

/** "2 high, 1 medium quality" (tiers with none left out), in the translator's language. */
export function qualityWords(q: Record<QualityTier, number>, t: Translate): string {
  const parts = tiers
    .filter((tier) => q[tier] > 0)
    .map((tier) => t("run.coverage.tier", { count: q[tier], tier }));
  return parts.length
    ? t("run.coverage.tiers", { list: parts.join(t("runEvents.listSeparator")) })
    : t("run.coverage.noTiers");
}
