/**
 * The claims of a stored report: each cited sentence with the URLs of the sources it cites. A
 * report's claims are what two versions of it are compared by (diff.ts). Pure and deterministic.
 */
import { citedRuns } from "../citations/sentences.ts";

/** One cited sentence: its plain text and the URLs of the sources it cites (as stored, sorted). */
export interface Claim {
  text: string;
  sources: string[];
}

/** A line of a sources list: `[N] [Title](url)` as the app writes it, or `N. [Title](url)`. */
const SOURCE_ENTRY = /^\s*(?:\[\d{1,4}\]|\d{1,4}[.)])\s/;
const HEADING = /^\s{0,3}#{1,6}\s/;

/**
 * The report without its closing sources list: the last heading is dropped with what follows when
 * every line after it is a numbered entry (its own name, "Sources", is not relied on: its entries
 * are not claims in any language).
 */
export function reportBody(markdown: string): string {
  const lines = markdown.split("\n");
  let at = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (HEADING.test(lines[i])) {
      at = i;
      break;
    }
  }
  if (at < 0) return markdown;
  const rest = lines.slice(at + 1).filter((l) => l.trim() !== "");
  if (rest.length === 0 || !rest.every((l) => SOURCE_ENTRY.test(l))) return markdown;
  return lines.slice(0, at).join("\n");
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
