/**
 * Why the engine ended, skipped or refused something, as a code and the values its words need, so
 * each reader says it in their own language: the UI by its messages (`because.<code>`), a report by
 * its words. The English `reason` written beside it stays for the API and for readers that know no
 * code (an event from an older version); a value named `said` is someone else's words (a provider's
 * error, a model's reason) and is shown as they were said.
 */

/** Why a run ended without its report being finished, or was cancelled. */
export const runEndCodes = [
  "run_time_limit",
  "phase_time_limit",
  "budget_exhausted",
  "storage_quota",
  "run_error",
  "not_configured",
  "job_given_up",
  "job_missing",
  "cancelled_by_user",
  "cancelled_before_start",
] as const;

/** Why a directive that was open when the research stopped was not researched. */
export const directiveSkipCodes = [
  "skip_run_cancelled",
  "skip_finished_early",
  "skip_supervision_over",
] as const;

/**
 * Why a researcher's page was not read (or was refused, or shown from the store): the engine's own
 * reasons and every refusal of lib/fetch (fetch-because.ts maps them). Values: `host`, `status`,
 * `max` (redirects), `bytes`, `seconds`, `type` (a content type, `none` when the server sent
 * none), `pages` and `max` (a PDF's pages), `said` (the network stack's or a parser's words).
 */
export const fetchCodes = [
  "fetch_invalid_url",
  "fetch_not_admitted",
  "fetch_already_read",
  "fetch_scheme",
  "fetch_credentials",
  "fetch_private_address",
  "fetch_dns_failed",
  "fetch_too_many_redirects",
  "fetch_too_large",
  "fetch_timeout",
  "fetch_content_type",
  "fetch_http_error",
  "fetch_aborted",
  "fetch_network",
  "fetch_unreadable",
  "fetch_parse_failed",
  "fetch_parse_timeout",
  "fetch_parse_too_large",
  "fetch_too_many_pages",
  "fetch_no_text",
  "fetch_failed",
] as const;

/** Why a follow-up question was not answered; `said` is the model provider's or the server's words. */
export const answerCodes = ["answer_no_report", "answer_not_configured", "answer_failed"] as const;

/** Every code, by area; each has words in every locale (the messages test reads this list). */
export const becauseCodes = [...runEndCodes, ...directiveSkipCodes, ...fetchCodes, ...answerCodes] as const;

export type BecauseCode = (typeof becauseCodes)[number];

export type BecauseValues = Record<string, string | number>;

export interface Because<C extends BecauseCode = BecauseCode> {
  code: C;
  values?: BecauseValues;
}

/** A reason as data; `values` left out when there are none. */
export function because<C extends BecauseCode>(code: C, values?: BecauseValues): Because<C> {
  return values && Object.keys(values).length ? { code, values } : { code };
}
