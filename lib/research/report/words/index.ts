/**
 * The words the code writes into reports, per report language (lib/research/language.ts). A stored
 * report has one language whoever reads it, so these follow the run, not the reader's UI locale.
 */
import type { ReportLanguage } from "../../language.ts";
import { de } from "./de.ts";
import { en } from "./en.ts";
import type { ReportWords } from "./types.ts";
import { zh } from "./zh.ts";

export type { ReportWords } from "./types.ts";

export const REPORT_WORDS: Record<ReportLanguage, ReportWords> = { en, de, zh };

export function reportWords(language: ReportLanguage): ReportWords {
  return REPORT_WORDS[language];
}
