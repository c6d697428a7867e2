/**
 * The sentence of a stored passage that best matches the claim citing it, chosen lexically (no
 * model call): the passage is cut into sentences (Intl.Segmenter, so any language's punctuation
 * counts), each scored by the claim's content words it shares, rarer words counting more, and the
 * excerpt is that sentence with a neighbour on each side when they are short.
 */

/** Words too common to say anything about a match (English; other languages score on all words). */
const STOP = new Set(
  "a an and are as at be been but by can did do does for from had has have he her his how i if in into is it its more most no not of on or our she so than that the their them then there these they this to was we were what when which who will with would you".split(
    " ",
  ),
);

/** A claim or sentence as its content words: lower case, letters and digits, markers removed. */
export function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/\[\d+(?:[,;\s-]+\d+)*\]/g, " ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOP.has(w));
}

/** The passage's sentences with where each starts and ends (offsets into the passage). */
export function sentencesOf(passage: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });
  for (const s of segmenter.segment(passage)) {
    const text = s.segment.trim();
    if (!text) continue;
    const start = s.index + s.segment.indexOf(text);
    out.push({ start, end: start + text.length, text });
  }
  return out;
}

export interface PassageExcerpt {
  /** Text before the best sentence within the excerpt, the sentence itself, and the text after. */
  before: string;
  match: string;
  after: string;
  /** Whether the excerpt leaves out the passage's start, its end ("show more" has something to show). */
  cutBefore: boolean;
  cutAfter: boolean;
  /** The whole passage split the same way, for "show more". */
  full: { before: string; match: string; after: string };
}

/** Neighbouring sentences join the excerpt while it stays under this many characters. */
const EXCERPT_CHARS = 320;

/** Index of the sentence sharing the most claim words (weighted by rarity across the passage). */
export function bestSentenceIndex(sentences: readonly string[], claim: string): number {
  const claimWords = new Set(contentWords(claim));
  if (!claimWords.size || sentences.length < 2) return 0;
  const bags = sentences.map((s) => new Set(contentWords(s)));
  const df = new Map<string, number>();
  for (const bag of bags) for (const w of bag) df.set(w, (df.get(w) ?? 0) + 1);
  let best = 0;
  let bestScore = -1;
  bags.forEach((bag, i) => {
    let score = 0;
    for (const w of claimWords) if (bag.has(w)) score += Math.log(1 + sentences.length / (df.get(w) ?? 1));
    // Among equals, the shorter sentence says it more directly.
    const normalised = score / Math.sqrt(Math.max(4, bag.size));
    if (normalised > bestScore) {
      best = i;
      bestScore = normalised;
    }
  });
  return best;
}

/** The passage around its best-matching sentence for `claim`; the whole passage stays available. */
export function passageExcerpt(passage: string, claim: string): PassageExcerpt {
  const text = passage.trim();
  const sentences = sentencesOf(text);
  if (!sentences.length) {
    const empty = { before: "", match: text, after: "" };
    return { ...empty, cutBefore: false, cutAfter: false, full: empty };
  }
  const i = bestSentenceIndex(
    sentences.map((s) => s.text),
    claim,
  );
  const hit = sentences[i];
  let from = hit.start;
  let to = hit.end;
  const prev = sentences[i - 1];
  const next = sentences[i + 1];
  if (prev && to - prev.start <= EXCERPT_CHARS) from = prev.start;
  if (next && next.end - from <= EXCERPT_CHARS) to = next.end;
  const full = { before: text.slice(0, hit.start), match: hit.text, after: text.slice(hit.end) };
  return {
    before: text.slice(from, hit.start),
    match: hit.text,
    after: text.slice(hit.end, to),
    cutBefore: from > 0,
    cutAfter: to < text.length,
    full,
  };
}
