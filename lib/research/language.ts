/**
 * The language a report is written in. `reportLanguage` is `auto` (the question's language) or one
 * of the languages whose words the code can put into a report (headings, notices, exports): adding
 * one is adding its words (lib/research/report/words) and its entry here.
 */

export const REPORT_LANGUAGES = ["en", "de", "zh"] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];
export type ReportLanguageSetting = "auto" | ReportLanguage;

/** How the prompts name a language: in English and in itself, so any model recognises it. */
export const LANGUAGE_NAMES: Record<ReportLanguage, string> = {
  en: "English",
  de: "German (Deutsch)",
  zh: "Simplified Chinese (简体中文)",
};

const HAN = /\p{Script=Han}/gu;
const LETTER = /\p{L}/gu;
// Words that are common in German prose and rare in English; one umlaut or ß settles it too.
const GERMAN_WORDS =
  /\b(?:der|die|das|und|ist|sind|nicht|wie|welche[rsnm]?|warum|wird|werden|für|mit|von|auf|eine?[rnsm]?|im|zum|zur|den|dem|des|auch|oder|bei|nach|über)\b/giu;

/**
 * The language of `text` among those a report can be written in, by script and common words:
 * deterministic, no model call. Anything else reads as English (the code's words fall back to it).
 */
export function detectLanguage(text: string): ReportLanguage {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return "en";
  const han = text.match(HAN)?.length ?? 0;
  if (han / letters >= 0.3) return "zh";
  const german = text.match(GERMAN_WORDS)?.length ?? 0;
  const words = text.split(/\s+/).filter(Boolean).length;
  if (/[äöüß]/i.test(text) || (german >= 2 && german / words >= 0.15)) return "de";
  return "en";
}

/** The language a run's report is written in: the setting, or the question's when it is `auto`. */
export function reportLanguageOf(
  setting: ReportLanguageSetting | undefined,
  question: string,
): ReportLanguage {
  return setting && setting !== "auto" ? setting : detectLanguage(question);
}

/**
 * How an instruction names the language to write in: with `auto` the model is told to follow the
 * question (it knows more languages than the code has words for), otherwise the chosen one.
 */
export function writeInClause(setting: ReportLanguageSetting | undefined, auto: string): string {
  return !setting || setting === "auto"
    ? auto
    : `${LANGUAGE_NAMES[setting]}, whatever language the question, the findings and the sources are in`;
}

/** The report language of a stored run, from its settings (anything unknown reads as `auto`). */
export function runReportLanguage(settings: unknown, question: string): ReportLanguage {
  const chosen = (settings as { reportLanguage?: unknown } | null)?.reportLanguage;
  const setting = REPORT_LANGUAGES.find((l) => l === chosen);
  return reportLanguageOf(setting, question);
}
