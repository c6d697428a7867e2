/**
 * Acting on the support check in the stored report: a citation its source does not support is
 * marked where the reader sees it; with `strictCitations` the citation is removed instead and the
 * sentence flagged, so the report never presents an unsupported claim as sourced.
 */
import type { CitationSupport } from "../../vocabulary.ts";
import { protectCode } from "./code.ts";
import { renderCitationMarkers } from "./markers.ts";
import { citedRuns } from "./sentences.ts";

/** The visible mark after a run whose listed sources do not support the sentence. */
export function unsupportedMark(numbers: readonly number[]): string {
  return ` *(not supported by source${numbers.length === 1 ? "" : "s"} ${numbers.join(", ")})*`;
}

/** The flag a sentence gets when strict mode removed its unsupported citation(s). */
export const REMOVED_CITATION_FLAG = " *(unsupported claim: citation removed)*";

export type VerdictOf = (number: number, sentence: string) => CitationSupport | undefined;

/**
 * Marks (or, when `strict`, removes) every citation `verdictOf` calls unsupported in a report body
 * (no Sources section). Sentences are read exactly as the citations were collected, so the
 * (number, sentence) pairs match the stored citation records.
 */
export function markCitationVerdicts(
  body: string,
  verdictOf: VerdictOf,
  strict: boolean,
): { markdown: string; marked: number; removed: number } {
  const { text, restore } = protectCode(body);
  let out = "";
  let last = 0;
  let marked = 0;
  let removed = 0;
  for (const run of citedRuns(text)) {
    const sentence = restore(run.sentence);
    const unsupported = run.numbers.filter((n) => verdictOf(n, sentence) === "unsupported");
    if (!unsupported.length) continue;
    let before = text.slice(last, run.start);
    if (strict) {
      const kept = run.numbers.filter((n) => !unsupported.includes(n));
      if (!kept.length) before = before.replace(/[ \t]+$/, "");
      out += `${before}${renderCitationMarkers(kept)}${REMOVED_CITATION_FLAG}`;
      removed += unsupported.length;
    } else {
      out += `${before}${text.slice(run.start, run.end)}${unsupportedMark(unsupported)}`;
      marked += unsupported.length;
    }
    last = run.end;
  }
  return { markdown: restore(out + text.slice(last)), marked, removed };
}
