/**
 * How two claims' words are compared: Unicode-aware, case- and width-folded words, with the figures
 * kept apart (a changed figure makes a changed claim, however many words still agree). Scripts
 * written without spaces (Chinese, Japanese) count each character as a word.
 */

/** A character of a script written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** A figure: digits with their decimal and thousands separators ("1,200.5", "3,5"). */
const FIGURE = /\p{Nd}+(?:[.,]\p{Nd}+)*/gu;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

export interface ClaimWords {
  /** The distinct words, figures left out. */
  words: Set<string>;
  /** The figures, sorted, thousands separators dropped ("1,200" and "1200" are the same figure). */
  figures: string[];
  /** Words and figures in order: two claims with the same key say the same thing. */
  key: string;
}

const fold = (s: string) => s.normalize("NFKC").toLowerCase();

function wordsOf(text: string): string[] {
  return [...text.matchAll(WORD)].flatMap((m) =>
    UNSPACED.test(m[0]) ? [...m[0]].filter((c) => c.trim() !== "") : [m[0]],
  );
}

export function claimWords(text: string): ClaimWords {
  const folded = fold(text);
  const figures = [...folded.matchAll(FIGURE)]
    .map((m) => m[0].replace(/[.,](?=\p{Nd}{3}(?!\p{Nd}))/gu, ""))
    .sort();
  const words = wordsOf(folded.replace(FIGURE, " "));
  return { words: new Set(words), figures, key: wordsOf(folded).join(" ") };
}

/** The Dice coefficient of two word sets: 2·|A∩B| / (|A|+|B|), 1 for two empty sets. */
export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size + b.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return (2 * shared) / (a.size + b.size);
}

export const sameFigures = (a: ClaimWords, b: ClaimWords) =>
  a.figures.length === b.figures.length && a.figures.every((f, i) => f === b.figures[i]);
