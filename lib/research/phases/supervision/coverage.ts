/**
 * Per-directive coverage and the heuristic confidence the supervisor falls back on when its LLM
 * assessment is unavailable. Pure functions: the caller loads directives, sources and findings.
 *
 * Heuristic confidence = 0.5 × source adequacy + 0.2 × domain diversity + 0.3 × completion rate,
 * over the directives that have been attempted (done or failed):
 * - source adequacy: the MINIMUM over those directives of min(1, sources / minSourcesPerQuery) —
 *   one thin directive is a gap in the report, however well the others went;
 * - domain diversity: the MEAN over those directives of min(1, unique domains / minSourcesPerQuery) —
 *   several pages from one site are one voice;
 * - completion rate: done / attempted.
 * Adequacy weighs most because uncited claims are the failure users notice; coverage is sufficient
 * when the confidence reaches `coverageThreshold` (default 0.75).
 */

import type { DirectiveRecord, SourceRecord } from "../../store.ts";
import type { DirectiveStatus, QualityTier } from "../../vocabulary.ts";

export const COVERAGE_WEIGHTS = { sourceAdequacy: 0.5, domainDiversity: 0.2, completionRate: 0.3 } as const;
export const FINDINGS_EXCERPT_CHARS = 400;

export interface DirectiveCoverage {
  directiveId: string;
  ordinal: number;
  round: number;
  topic: string;
  status: DirectiveStatus;
  sourceCount: number;
  quality: Record<QualityTier, number>;
  uniqueDomains: number;
  domains: string[];
  findingsExcerpt: string;
}

export interface HeuristicConfidence {
  confidence: number;
  sourceAdequacy: number;
  domainDiversity: number;
  completionRate: number;
  /** Directives that were attempted (done or failed): the ones the numbers are over. */
  attempted: number;
  sufficient: boolean;
}

export interface CoverageReport {
  directives: DirectiveCoverage[];
  heuristic: HeuristicConfidence;
  totalSources: number;
}

export interface CoverageInput {
  directives: readonly DirectiveRecord[];
  sourcesByDirective: ReadonlyMap<string, readonly SourceRecord[]>;
  findingsByDirective: ReadonlyMap<string, string>;
  /** Distinct sources in the run (a source used by two directives counts once). */
  totalSources: number;
}

export interface CoverageSettings {
  minSourcesPerQuery: number;
  coverageThreshold: number;
}

export function excerpt(text: string, max = FINDINGS_EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function directiveCoverage(
  directive: DirectiveRecord,
  sources: readonly SourceRecord[],
  findings: string | undefined,
): DirectiveCoverage {
  const quality: Record<QualityTier, number> = { HIGH: 0, MEDIUM: 0, LOW: 0, UNKNOWN: 0 };
  const domains = new Set<string>();
  for (const s of sources) {
    quality[s.quality] += 1;
    if (s.domain) domains.add(s.domain.toLowerCase());
  }
  return {
    directiveId: directive.id,
    ordinal: directive.ordinal,
    round: directive.round,
    topic: directive.topic,
    status: directive.status,
    sourceCount: sources.length,
    quality,
    uniqueDomains: domains.size,
    domains: [...domains].sort(),
    findingsExcerpt: findings ? excerpt(findings) : "",
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function heuristicConfidence(
  rows: readonly DirectiveCoverage[],
  settings: CoverageSettings,
): HeuristicConfidence {
  const attempted = rows.filter((r) => r.status === "done" || r.status === "failed");
  if (attempted.length === 0) {
    return {
      confidence: 0,
      sourceAdequacy: 0,
      domainDiversity: 0,
      completionRate: 0,
      attempted: 0,
      sufficient: false,
    };
  }
  const min = Math.max(1, settings.minSourcesPerQuery);
  const sourceAdequacy = Math.min(...attempted.map((r) => Math.min(1, r.sourceCount / min)));
  const domainDiversity =
    attempted.reduce((sum, r) => sum + Math.min(1, r.uniqueDomains / min), 0) / attempted.length;
  const completionRate = attempted.filter((r) => r.status === "done").length / attempted.length;
  const confidence = round3(
    COVERAGE_WEIGHTS.sourceAdequacy * sourceAdequacy +
      COVERAGE_WEIGHTS.domainDiversity * domainDiversity +
      COVERAGE_WEIGHTS.completionRate * completionRate,
  );
  return {
    confidence,
    sourceAdequacy: round3(sourceAdequacy),
    domainDiversity: round3(domainDiversity),
    completionRate: round3(completionRate),
    attempted: attempted.length,
    sufficient: confidence >= settings.coverageThreshold,
  };
}

export function computeCoverage(input: CoverageInput, settings: CoverageSettings): CoverageReport {
  const rows = input.directives
    .filter((d) => d.status !== "skipped")
    .map((d) =>
      directiveCoverage(d, input.sourcesByDirective.get(d.id) ?? [], input.findingsByDirective.get(d.id)),
    );
  return {
    directives: rows,
    heuristic: heuristicConfidence(rows, settings),
    totalSources: input.totalSources,
  };
}

/** The JSON kept in a supervision round's coverage columns (and shown by the API). */
export function coverageRecord(report: CoverageReport): Record<string, unknown> {
  return {
    totalSources: report.totalSources,
    heuristic: report.heuristic,
    directives: report.directives.map((d) => ({
      directiveId: d.directiveId,
      ordinal: d.ordinal,
      round: d.round,
      topic: d.topic,
      status: d.status,
      sourceCount: d.sourceCount,
      quality: d.quality,
      uniqueDomains: d.uniqueDomains,
      domains: d.domains,
      findingsExcerpt: d.findingsExcerpt,
    })),
  };
}
