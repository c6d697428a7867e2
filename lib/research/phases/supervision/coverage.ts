/**
 * Per-directive coverage and the heuristic confidence the supervisor falls back on when its LLM
 * assessment is unavailable. Pure functions: the caller loads directives, sources and findings.
 *
 * Coverage counts evidence, not search hits: a source counts for a directive only when its text
 * was READ for that directive (fetched, or a stored text shown to its researcher). Hits that were
 * only listed in search results are "seen" (`seenCount`) and count for nothing else. Quality tiers,
 * domains and citations are all measured over the read sources; a read source is "cited" when the
 * directive's findings name its URL (their closing Sources list does).
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

import type { DirectiveRecord, DirectiveSourceRecord } from "../../store.ts";
import type { DirectiveStatus, QualityTier } from "../../vocabulary.ts";

export const COVERAGE_WEIGHTS = { sourceAdequacy: 0.5, domainDiversity: 0.2, completionRate: 0.3 } as const;
export const FINDINGS_EXCERPT_CHARS = 400;

export interface DirectiveCoverage {
  directiveId: string;
  ordinal: number;
  round: number;
  topic: string;
  status: DirectiveStatus;
  /** Sources whose text was read for this directive. */
  sourceCount: number;
  /** Every source linked to it, search hits nobody opened included. */
  seenCount: number;
  /** Read sources by quality tier. */
  quality: Record<QualityTier, number>;
  /** Distinct domains of the read sources. */
  uniqueDomains: number;
  domains: string[];
  /** Distinct domains of the read HIGH/MEDIUM-quality sources. */
  qualityDomains: number;
  /** Read sources the findings cite. */
  citedCount: number;
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
  /** Distinct sources read in the run (a source read by two directives counts once). */
  totalSources: number;
  /** Distinct sources stored in the run, unread search hits included. */
  seenSources: number;
}

export interface CoverageInput {
  directives: readonly DirectiveRecord[];
  sourcesByDirective: ReadonlyMap<string, readonly DirectiveSourceRecord[]>;
  findingsByDirective: ReadonlyMap<string, string>;
  /** Distinct sources stored in the run, read or not. */
  seenSources: number;
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
  sources: readonly DirectiveSourceRecord[],
  findings: string | undefined,
): DirectiveCoverage {
  const quality: Record<QualityTier, number> = { HIGH: 0, MEDIUM: 0, LOW: 0, UNKNOWN: 0 };
  const domains = new Set<string>();
  const qualityDomains = new Set<string>();
  const read = sources.filter((s) => s.read);
  for (const s of read) {
    quality[s.quality] += 1;
    const domain = s.domain.toLowerCase();
    if (!domain) continue;
    domains.add(domain);
    if (s.quality === "HIGH" || s.quality === "MEDIUM") qualityDomains.add(domain);
  }
  return {
    directiveId: directive.id,
    ordinal: directive.ordinal,
    round: directive.round,
    topic: directive.topic,
    status: directive.status,
    sourceCount: read.length,
    seenCount: sources.length,
    quality,
    uniqueDomains: domains.size,
    domains: [...domains].sort(),
    qualityDomains: qualityDomains.size,
    citedCount: findings ? read.filter((s) => findings.includes(s.url)).length : 0,
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
  const readIds = new Set<string>();
  for (const list of input.sourcesByDirective.values()) {
    for (const s of list) if (s.read) readIds.add(s.id);
  }
  return {
    directives: rows,
    heuristic: heuristicConfidence(rows, settings),
    totalSources: readIds.size,
    seenSources: input.seenSources,
  };
}

/** The JSON kept in a supervision round's coverage columns (and shown by the API). */
export function coverageRecord(report: CoverageReport): Record<string, unknown> {
  return {
    totalSources: report.totalSources,
    seenSources: report.seenSources,
    heuristic: report.heuristic,
    directives: report.directives.map((d) => ({
      directiveId: d.directiveId,
      ordinal: d.ordinal,
      round: d.round,
      topic: d.topic,
      status: d.status,
      sourceCount: d.sourceCount,
      seenCount: d.seenCount,
      quality: d.quality,
      uniqueDomains: d.uniqueDomains,
      domains: d.domains,
      qualityDomains: d.qualityDomains,
      citedCount: d.citedCount,
      findingsExcerpt: d.findingsExcerpt,
    })),
  };
}
