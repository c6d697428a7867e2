/**
 * The words the code writes into reports, per report language (lib/research/language.ts). A stored
 * report has one language whoever reads it, so these follow the run, not the reader's UI locale.
 */
import type { Because, RunFailureCode } from "../../because.ts";
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

/** Why the run failed, in the report's words; a phase named in the report's language. */
export function failedBecause(words: ReportWords, { code, values = {} }: Because<RunFailureCode>): string {
  const phase = String(values.phase ?? "");
  return words.failure[code]({ ...values, phase: words.phaseNames[phase] ?? phase });
}
