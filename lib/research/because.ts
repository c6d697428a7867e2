/**
 * Why the engine ended, skipped or refused something, as a code and the values its words need, so
 * each reader says it in their own language: the UI by its messages (`because.<code>`), a report by
 * its words. The English `reason` written beside it stays for the API and for readers that know no
 * code (an event from an older version); a value named `said` is someone else's words (a provider's
 * error, a model's reason) and is shown as they were said.
 */

/** Why a run failed while it ran (a partial report says it too, in the report's language). */
export const runFailureCodes = [
  "run_time_limit",
  "phase_time_limit",
  "budget_exhausted",
  "storage_quota",
  "run_error",
] as const;

export type RunFailureCode = (typeof runFailureCodes)[number];

/** Why a run ended without its report being finished, or was cancelled. */
export const runEndCodes = [
  ...runFailureCodes,
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
 * Why a citation has its support verdict (report/support.ts), or why it was not checked. A model's
 * verdict says its reason as `said` (or, when it gave none, its `verdict`), and `handled` says what
 * the report did with it: "kept", or for an unsupported citation "removed" (strictCitations) or
 * "marked" (report/synthesis.ts).
 */
export const verdictReasonCodes = [
  "verdict_quoted",
  "verdict_overlap",
  "verdict_model",
  "verdict_model_silent",
  "verdict_unreadable",
  "verdict_missing",
  "verdict_check_failed",
  "verdict_no_text",
  "verdict_no_sentence",
  "verdict_over_budget",
  "verdict_not_checked_yet",
  "verdict_no_model",
] as const;

/**
 * Why round 0 kept or revised its plan (`supervision.first_round_*`): the critique's outcome, or
 * the fallback when the model gave no plan. `said`: the model call's error.
 */
export const planCodes = [
  "plan_generation_failed",
  "plan_nothing_to_critique",
  "plan_critique_failed",
  "plan_all_passed",
  "plan_revision_failed",
  "plan_issues_found",
] as const;

/** Why a proposed directive was not stored (`directive.rejected`). */
export const rejectCodes = [
  "reject_near_duplicate",
  "reject_restatement",
  "reject_too_vague",
  "reject_budget_used",
  "reject_over_researchers",
  "reject_over_follow_ups",
] as const;

/**
 * Why a supervision round went on or stopped (its stored `reason`, a planned stop, a rationale
 * the code wrote). `said`: a model's own words or an error; `coverage`: a share (0–1).
 */
export const roundCodes = [
  "round_supervision_disabled",
  "round_no_rounds_after_zero",
  "round_max_rounds",
  "round_no_new_sources",
  "round_time_limit",
  "round_continue",
  "round_gate_covered",
  "round_heuristic_sufficient",
  "round_heuristic_follow_ups",
  "round_heuristic_no_gap",
  "round_model_sufficient",
  "round_follow_ups_rejected",
  "round_no_follow_ups",
  "round_nothing_left",
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

/** What a researched directive's evidence still lacks, measured (supervision/coverage-gaps.ts). */
export const gapCodes = [
  "gap_failed",
  "gap_unread",
  "gap_no_high",
  "gap_few_quality",
  "gap_one_domain",
  "gap_few_domains",
  "gap_uncited",
] as const;

/** Every code, by area; each has words in every locale (the messages test reads this list). */
export const becauseCodes = [
  ...runEndCodes,
  ...directiveSkipCodes,
  ...verdictReasonCodes,
  ...planCodes,
  ...rejectCodes,
  ...roundCodes,
  ...gapCodes,
  ...fetchCodes,
  ...answerCodes,
] as const;

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

/** A reason both ways: the English sentence the API keeps, and the same as a code. */
export interface Why<C extends BecauseCode = BecauseCode> {
  reason: string;
  because: Because<C>;
}
