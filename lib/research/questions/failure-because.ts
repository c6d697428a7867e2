/**
 * Why a follow-up question was not answered, as a code the UI says in the page's language; the
 * provider's or the server's words stay as they were said.
 */
import { type Because, because } from "../because.ts";
import { isNotConfigured } from "../errors.ts";

/** The run ended without a report, so there is nothing to answer from. */
export const noReportBecause: Because = because("answer_no_report");

/** An error raised while answering; `said` is its message as stored with the question. */
export function answerFailureBecause(error: unknown, said: string): Because {
  return because(isNotConfigured(error) ? "answer_not_configured" : "answer_failed", { said });
}
