/**
 * A first mention written as `[Title](URL) [N]` names source N twice: by its number and by a URL.
 * When the URL is not source N's (a model mixing up two pages, or inventing a plausible address),
 * the number wins — it is what the reader follows to the Sources list — and the link is rewritten
 * to source N's stored URL. Each rewrite is returned so the run can record it.
 */
import type { SourceRecord } from "../../store.ts";
import { MARKDOWN_LINK } from "./bibliography.ts";
import { findMarkerRuns } from "./markers.ts";
import { escapeLinkUrl, hasSnapshot, urlKey } from "./source-list.ts";

export interface LinkCorrection {
  sourceId: string;
  /** The URL the model wrote. */
  from: string;
  /** Source N's stored URL, written instead. */
  to: string;
}

/** How far after a link its citation may start (blanks only). */
const MARKER_WINDOW = 40;

/** The citation numbers right after position `end` (only blanks between); empty when none. */
function numbersAfter(text: string, end: number): number[] {
  const tail = text.slice(end, end + MARKER_WINDOW);
  const run = findMarkerRuns(tail)[0];
  if (!run || !/^[ \t]*$/.test(tail.slice(0, run.start))) return [];
  return run.numbers;
}

/**
 * Rewrites `[Title](URL) [N]` links whose URL is not source N's (source N = `numbered[N - 1]`);
 * with several numbers after the link, a URL matching none of them is rewritten to the first's.
 */
export function correctCitedLinks(
  markdown: string,
  numbered: readonly SourceRecord[],
): { markdown: string; corrections: LinkCorrection[] } {
  const corrections: LinkCorrection[] = [];
  const pattern = new RegExp(MARKDOWN_LINK.source, MARKDOWN_LINK.flags);
  const out = markdown.replace(
    pattern,
    (whole: string, image: string, label: string, url: string, offset: number) => {
      // `[3](url)` is a citation written as a link: flattenLinks reads its URL instead.
      if (image || /^\s*\^?\d{1,4}\s*$/.test(label)) return whole;
      const cited = numbersAfter(markdown, offset + whole.length)
        .map((n) => numbered[n - 1])
        .filter((s): s is SourceRecord => s !== undefined && hasSnapshot(s));
      const key = urlKey(url);
      // `[Title](URL) [2][5]` is right when the URL is any of the cited sources'; else source 2's is meant.
      if (!cited.length || cited.some((s) => key === urlKey(s.url) || key === urlKey(s.normalizedUrl)))
        return whole;
      const source = cited[0];
      corrections.push({ sourceId: source.id, from: url, to: source.url });
      return `[${label}](${escapeLinkUrl(source.url)})`;
    },
  );
  return { markdown: out, corrections };
}
