/**
 * Citation post-processing: after this, every `[N]` in a report resolves to a stored source that
 * has a text snapshot. Pure functions over Markdown text; the synthesis phase wires them in.
 *
 * The model cites by the numbers of the list it was given (source N = `numbered[N - 1]`). We map
 * those, renumber in reading order, drop what does not resolve, flatten links to pages we never
 * stored, strip any bibliography the model wrote, and append our own `## Sources` from the database.
 * The steps live beside this file: markers.ts ([N] markers), bibliography.ts (the model's own
 * lists and links), sentences.ts (the sentence each citation supports), source-list.ts (stored
 * sources by URL, the Sources section).
 */

import type { SourceRecord } from "../../store.ts";
import type { ReportWords } from "../words/types.ts";
import { flattenLinks, stripBibliography } from "./bibliography.ts";
import { protectCode } from "./code.ts";
import { correctCitedLinks, type LinkCorrection } from "./link-check.ts";
import { rewriteCitationRuns } from "./markers.ts";
import { collectCitedSentences } from "./sentences.ts";
import { buildSourcesSection, hasSnapshot, indexSourcesByUrl, urlKey } from "./source-list.ts";

export type { LinkCorrection } from "./link-check.ts";

export interface ReportCitation {
  /** The number in the processed report. */
  number: number;
  sourceId: string;
  /** The cited sentence as plain text (markers, links and emphasis removed). */
  sentence: string;
}

export interface CitationStats {
  /** Citation references kept (each number in each marker). */
  kept: number;
  /** References to numbers with no stored source, or to a source without a text snapshot. */
  removedUnknown: number;
  /** Markdown links (and images) to URLs that are not stored sources, turned into plain text. */
  flattenedLinks: number;
  /** `[Title](URL) [N]` links whose URL was not source N's, rewritten to source N's URL. */
  correctedLinks: number;
  strippedBibliography: boolean;
  /** Distinct sources in the Sources section. */
  citedSources: number;
}

export interface ProcessedReport {
  markdown: string;
  citations: ReportCitation[];
  stats: CitationStats;
  /** The report without its Sources section (for marking verdicts), and the cited sources in order. */
  body: string;
  cited: SourceRecord[];
  linkCorrections: LinkCorrection[];
}

/**
 * The model's numbers → numbers in reading order (first cited is [1]). A reference to no source,
 * or to one without a text snapshot, is removed and counted. `cited` is the new list, in order.
 */
function renumberInReadingOrder(text: string, numbered: readonly SourceRecord[]) {
  const newNumberOf = new Map<number, number>();
  const cited: SourceRecord[] = [];
  let kept = 0;
  let removedUnknown = 0;
  const body = rewriteCitationRuns(text, (numbers) => {
    const out: number[] = [];
    for (const n of numbers) {
      const source = numbered[n - 1];
      if (!source || !hasSnapshot(source)) {
        removedUnknown++;
        continue;
      }
      let assigned = newNumberOf.get(n);
      if (assigned === undefined) {
        assigned = cited.length + 1;
        newNumberOf.set(n, assigned);
        cited.push(source);
      }
      kept++;
      out.push(assigned);
    }
    return out;
  });
  return { body, cited, kept, removedUnknown };
}

/**
 * Process a report the model wrote citing `numbered` (source N = `numbered[N - 1]`). Sources
 * without a text snapshot cannot be cited: a reference to one counts as unknown and is removed.
 */
export function processReportCitations(
  markdown: string,
  numbered: readonly SourceRecord[],
  words?: ReportWords,
): ProcessedReport {
  const { text: protectedText, restore } = protectCode(markdown.replace(/\r\n?/g, "\n"));
  const bib = stripBibliography(protectedText);
  const checked = correctCitedLinks(bib.markdown, numbered);
  const byUrl = indexSourcesByUrl(numbered);
  const modelNumberOf = new Map(numbered.map((s, i) => [s.id, i + 1]));
  const links = flattenLinks(checked.markdown, (url) => {
    const source = byUrl.get(urlKey(url));
    return source && modelNumberOf.get(source.id);
  });

  const renumbered = renumberInReadingOrder(links.markdown, numbered);
  const { cited } = renumbered;
  const body = renumbered.body.replace(/\s+$/, "");
  const citations = collectCitedSentences(body).map(({ number, sentence }) => ({
    number,
    sourceId: cited[number - 1].id,
    sentence: restore(sentence),
  }));
  const finalBody = restore(body);
  const markdownOut = cited.length
    ? `${finalBody}\n\n${buildSourcesSection(cited, words)}`
    : `${finalBody}\n`;
  return {
    markdown: markdownOut,
    citations,
    body: finalBody,
    cited,
    linkCorrections: checked.corrections,
    stats: {
      kept: renumbered.kept,
      removedUnknown: renumbered.removedUnknown,
      flattenedLinks: links.flattened,
      correctedLinks: checked.corrections.length,
      strippedBibliography: bib.stripped,
      citedSources: cited.length,
    },
  };
}
