/**
 * A rough language guess, enough to tell whether a report answers in the question's language:
 * a script count for non-Latin alphabets, then the most frequent function words for Latin ones.
 * It returns "unknown" rather than guess from too little text.
 */

// Scripts checked first: kana before Han, since Japanese mixes both.
const SCRIPTS: [lang: string, letters: RegExp][] = [
  ["ja", /[\p{Script=Hiragana}\p{Script=Katakana}]/gu],
  ["zh", /\p{Script=Han}/gu],
  ["ko", /\p{Script=Hangul}/gu],
  ["ru", /\p{Script=Cyrillic}/gu],
  ["ar", /\p{Script=Arabic}/gu],
  ["he", /\p{Script=Hebrew}/gu],
  ["el", /\p{Script=Greek}/gu],
  ["hi", /\p{Script=Devanagari}/gu],
];

// Short, frequent words that mostly belong to one language.
const FUNCTION_WORDS: Record<string, string[]> = {
  en: ["the", "and", "of", "is", "are", "what", "how", "with", "which", "for", "on", "this", "that", "than"],
  de: ["der", "die", "das", "und", "ist", "wie", "eine", "ein", "nicht", "mit", "sich", "den", "wann", "auf"],
  fr: ["le", "la", "les", "et", "est", "des", "une", "pour", "dans", "que", "qui", "sur", "pas", "avec"],
  es: ["el", "los", "las", "y", "es", "del", "una", "por", "para", "que", "con", "como", "cuál", "más"],
  it: ["il", "gli", "e", "è", "della", "una", "per", "che", "con", "come", "sono", "non", "più", "delle"],
  nl: ["de", "het", "en", "een", "van", "is", "hoe", "niet", "met", "voor", "zijn", "wat", "dat", "op"],
  pt: ["o", "os", "e", "é", "da", "do", "uma", "para", "que", "com", "como", "não", "mais", "das"],
};

export function detectLanguage(text: string): string {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (!letters) return "unknown";
  for (const [lang, re] of SCRIPTS) {
    if ((text.match(re)?.length ?? 0) / letters > 0.3) return lang;
  }
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best = "unknown";
  let bestHits = 0;
  for (const [lang, list] of Object.entries(FUNCTION_WORDS)) {
    const set = new Set(list);
    const hits = words.filter((w) => set.has(w)).length;
    if (hits > bestHits) [best, bestHits] = [lang, hits];
  }
  return bestHits >= 2 ? best : "unknown";
}

/** The report's prose: without its Sources section, URLs, link targets and citation markers. */
export function reportProse(markdown: string): string {
  const sources = markdown.search(/^#{1,3}\s*(Sources|References|Quellen|Sources citées)\s*$/im);
  const body = sources >= 0 ? markdown.slice(0, sources) : markdown;
  return body
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\[\d+(?:\s*,\s*\d+)*\]/g, " ");
}

export interface LanguageMatch {
  question: string;
  report: string;
  /** null when either side could not be told. */
  match: boolean | null;
}

export function languageMatch(question: string, reportMarkdown: string | null): LanguageMatch {
  const q = detectLanguage(question);
  const r = reportMarkdown ? detectLanguage(reportProse(reportMarkdown)) : "unknown";
  return { question: q, report: r, match: q === "unknown" || r === "unknown" ? null : q === r };
}
