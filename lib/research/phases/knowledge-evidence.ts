/**
 * What makes an extracted knowledge item worth a person's review: it states something the research
 * found (not the report's own scaffolding — its title, headings, or the app's notices about the
 * report), and its confidence says how well the run's evidence backs it: how many of the run's
 * sources support it, and what the citation check found when the report cited them.
 */
import { REMOVED_CITATION_FLAG } from "../report/citations/verdict-marks.ts";
import type { CitationRecord } from "../store.ts";
import type { CitationSupport } from "../vocabulary.ts";

/** A notice the app puts into a report (e.g. `> **Partial report.** …`): a blockquote opened in bold. */
const NOTICE_LINE = /^>\s*\*\*/;
const HEADING_LINE = /^#{1,6}\s+(.*?)\s*#*\s*$/;
/** The marks the citation check leaves after a sentence (verdict-marks.ts). */
const VERDICT_MARKS = [/ ?\*\(not supported by sources? [\d, ]+\)\*/g, REMOVED_CITATION_FLAG];

/** Text compared without case, markup, citation markers or punctuation. */
export function comparable(text: string): string {
  return text
    .toLowerCase()
    .replace(/\[\d+\]/g, " ")
    .replace(/[*_`#>[\]()]/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * The report as the extraction should read it: without the app's notices and the citation
 * check's marks (they are about the report, not its subject), and the texts that must never come
 * back as items (title, headings, notices), in comparable form.
 */
export function withoutScaffolding(body: string): { text: string; scaffolding: string[] } {
  const scaffolding: string[] = [];
  const kept: string[] = [];
  let inNotice = false;
  for (const line of body.split("\n")) {
    const heading = line.match(HEADING_LINE);
    if (heading) scaffolding.push(comparable(heading[1]));
    // A notice runs to the end of its blockquote.
    inNotice = NOTICE_LINE.test(line) || (inNotice && line.startsWith(">"));
    if (inNotice) {
      scaffolding.push(comparable(line));
      continue;
    }
    kept.push(line);
  }
  let text = kept.join("\n");
  for (const mark of VERDICT_MARKS) text = text.replaceAll(mark, "");
  return { text, scaffolding: scaffolding.filter(Boolean) };
}

/**
 * Whether `content` is the report's scaffolding rather than a statement: equal to, or a fragment
 * of, a heading or notice, or mostly made of one.
 */
export function isScaffolding(content: string, scaffolding: readonly string[]): boolean {
  const item = comparable(content);
  if (!item) return true;
  return scaffolding.some(
    (s) => s.includes(item) || (s.split(" ").length >= 3 && item.includes(s) && s.length * 2 >= item.length),
  );
}

/**
 * What one supporting source adds, by the verdicts of the report's citations of it (averaged): a
 * supported citation counts fully, a partly supported one half, an unchecked one a little, an
 * unsupported one counts against. A source the report never cites adds little.
 */
const VERDICT_WEIGHT: Record<CitationSupport, number> = {
  supported: 1,
  partially_supported: 0.5,
  unchecked: 0.3,
  unsupported: -0.5,
};
const UNCITED_WEIGHT = 0.2;
/** Confidence without any evidence, and the most that evidence can add to it. */
const FLOOR = 0.15;
const SPAN = 0.8;

export type VerdictsBySource = ReadonlyMap<string, readonly CitationSupport[]>;

export function verdictsBySource(citations: readonly CitationRecord[]): Map<string, CitationSupport[]> {
  const out = new Map<string, CitationSupport[]>();
  for (const c of citations) out.set(c.sourceId, [...(out.get(c.sourceId) ?? []), c.support]);
  return out;
}

/**
 * An item's confidence from its evidence: FLOOR with no supporting source, rising with each
 * source by its weight (each supported source halves the distance to FLOOR + SPAN). One supported
 * source gives 0.55, two 0.75, three 0.85; one unchecked 0.3; unsupported ones give FLOOR.
 */
export function evidenceConfidence(sourceIds: readonly string[], verdicts: VerdictsBySource): number {
  let evidence = 0;
  for (const id of sourceIds) {
    const found = verdicts.get(id) ?? [];
    evidence += found.length
      ? found.reduce((n, v) => n + VERDICT_WEIGHT[v], 0) / found.length
      : UNCITED_WEIGHT;
  }
  const confidence = FLOOR + SPAN * (1 - 2 ** -Math.max(0, evidence));
  return Math.round(confidence * 100) / 100;
}

/** Whether a citation of one of the item's sources was found unsupported by it. */
export function contradicted(sourceIds: readonly string[], verdicts: VerdictsBySource): boolean {
  return sourceIds.some((id) => verdicts.get(id)?.includes("unsupported"));
}
