/**
 * The claims of a stored report: each cited sentence with the URLs of the sources it cites. A
 * report's claims are what two versions of it are compared by (diff.ts). Pure and deterministic.
 */
import { citedRuns } from "../citations/sentences.ts";
import { reportBody } from "../parts.ts";

/** One cited sentence: its plain text and the URLs of the sources it cites (as stored, sorted). */
export interface Claim {
  text: string;
  sources: string[];
}

/**
 * The report's claims in reading order. A sentence cited by several markers is one claim citing
 * all their sources; a sentence written twice is one claim. Numbers with no URL in `urlOf` (not a
 * stored source) add nothing to a claim's sources.
 */
export function extractClaims(markdown: string, urlOf: (n: number) => string | undefined): Claim[] {
  const byText = new Map<string, Set<string>>();
  for (const run of citedRuns(reportBody(markdown))) {
    if (run.sentence === "") continue;
    let urls = byText.get(run.sentence);
    if (!urls) {
      urls = new Set();
      byText.set(run.sentence, urls);
    }
    for (const n of run.numbers) {
      const url = urlOf(n);
      if (url !== undefined) urls.add(url);
    }
  }
  return [...byText].map(([text, urls]) => ({ text, sources: [...urls].sort() }));
}
