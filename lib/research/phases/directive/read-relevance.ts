/**
 * Whether a page a researcher read kept findings for its topic — what the "enough relevant
 * sources" stop rule counts. A summarised page is relevant unless the summariser answered with
 * the no-findings marker its instructions define; a page shown as extracted text (short, or its
 * summary failed) is relevant when it mentions the topic's terms.
 */
import { NOTHING_ON_TOPIC } from "../../prompts/summarization.ts";
import { topicTokens } from "../supervision/dedup.ts";

/** Topic terms an extracted page must mention (all of them when the topic has fewer). */
export const MIN_TOPIC_TERMS = 2;
/** Words compared by their first letters, so "efficiency" finds "efficiencies". */
const STEM_CHARS = 6;

const stem = (token: string) => token.slice(0, STEM_CHARS);

/** The summariser found nothing on the topic (the marker alone, or opening its reply). */
export function summaryKeptFindings(summary: string): boolean {
  const text = summary.trim();
  return text.length > 0 && !text.toUpperCase().startsWith(NOTHING_ON_TOPIC);
}

/** The extracted text mentions at least MIN_TOPIC_TERMS of the topic's content words. */
export function extractionKeptFindings(topic: string, text: string): boolean {
  const wanted = new Set([...topicTokens(topic)].map(stem));
  if (wanted.size === 0) return text.trim().length > 0;
  const present = new Set([...topicTokens(text)].map(stem));
  let found = 0;
  for (const w of wanted) if (present.has(w)) found++;
  return found >= Math.min(MIN_TOPIC_TERMS, wanted.size);
}
