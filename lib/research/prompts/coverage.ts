/**
 * The coverage table the supervisor reads beside its memory: one line per directive with the
 * numbers the heuristic uses, so the model's judgement and the fallback look at the same facts.
 */
import type { CoverageReport } from "../phases/supervision/coverage.ts";
import type { DirectiveOrigin } from "../vocabulary.ts";

const TOPIC_CHARS = 180;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").replace(/\|/g, "/").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function formatCoverageTable(
  report: CoverageReport,
  origins: ReadonlyMap<string, DirectiveOrigin> = new Map(),
): string {
  if (!report.directives.length) return "(no directives yet)";
  const header = [
    "| # | round | by | status | read (seen) | quality H/M/L/U | domains | cited | topic |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  const rows = report.directives.map((d) => {
    const q = d.quality;
    return `| ${d.ordinal} | ${d.round} | ${origins.get(d.directiveId) ?? "supervisor"} | ${d.status} | ${d.sourceCount} (${d.seenCount}) | ${q.HIGH}/${q.MEDIUM}/${q.LOW}/${q.UNKNOWN} | ${d.uniqueDomains} | ${d.citedCount} | ${clip(d.topic, TOPIC_CHARS)} |`;
  });
  const h = report.heuristic;
  const summary =
    `Sources read in the run: ${report.totalSources} (search hits seen: ${report.seenSources}); ` +
    "quality, domains and citations count read sources only. " +
    `Heuristic confidence ${h.confidence.toFixed(2)} ` +
    `(source adequacy ${h.sourceAdequacy.toFixed(2)}, domain diversity ${h.domainDiversity.toFixed(2)}, ` +
    `completion ${h.completionRate.toFixed(2)}).`;
  return [...header, ...rows, "", summary].join("\n");
}
