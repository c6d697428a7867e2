/**
 * The one word tokeniser for text in any language: Intl.Segmenter's word boundaries (ICU's
 * dictionaries split unspaced Chinese and Japanese into words, which PostgreSQL's parser cannot: it
 * keeps a run of Han characters as one token), folded to NFKC lower case. Search indexing and
 * questions both go through it, so a question and a passage in the same language meet on the same
 * tokens whatever the language.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

/** Apostrophes end a token: "l’économie" → "économie", "Germany's" → "germany". */
const ELISION = /^[\p{L}]{1,2}['’]|['’]s?$/gu;

/** Words so common in the languages we see most that they say nothing about what a passage is about. */
const FUNCTION_WORDS = new Set(
  (
    "a an the and or of to in on at by for is are was were be been it its as that this these those " +
    "what which who whom when where why how do does did with from than then there their they them " +
    "about into over under not no but if so can could would should will may might has have had " +
    "der die das und oder ist sind war ein eine einer eines dem den des mit von für auf nicht auch " +
    "als bei nach wie was wer wo im in zu zum zur es sie er " +
    "le la les un une des du de et ou est sont au aux en dans pour par sur pas que qui " +
    "el los las y o es son del al con por para una que como " +
    "的 了 是 在 和 与 及 或 吗 呢 什么 怎么 多少 哪 哪些 の は が を に で と も か"
  ).split(" "),
);

/** Every word of `text`, in order, folded (NFKC, lower case, elisions dropped). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const part of segmenter.segment(text.normalize("NFKC").toLowerCase())) {
    if (!part.isWordLike) continue;
    const word = part.segment.replace(ELISION, "");
    if (word) out.push(word);
  }
  return out;
}

/** The words that carry meaning: no function words, no single Latin letters. */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => !FUNCTION_WORDS.has(w) && !/^[a-z]$/.test(w));
}

/** The distinct content words of a question, in order of first use. */
export function queryTerms(text: string): string[] {
  return [...new Set(contentWords(text))];
}

/**
 * The text as space-separated words: what the database's full-text parser indexes, so its own
 * tokens are ours (a Chinese word stays a word instead of the whole unspaced sentence).
 */
export function segmentedText(text: string): string {
  return words(text).join(" ");
}
