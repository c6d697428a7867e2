/**
 * What the UI may use of the engine: pure, browser-safe parts with no model, store or network in
 * them. The vocabulary (statuses, phases, priorities, …), the typed events a run emits and how to
 * read them, and the citation markers of a report. db/ stores this vocabulary too. Everything else
 * of the engine is reached through lib/research/index.ts (the import test enforces both doors).
 */

export { type Because, type BecauseCode, becauseCodes } from "./because.ts";
export type { Degradation } from "./degradations.ts";
export {
  type EventOf,
  isTransientEvent,
  type ResearchEvent,
  type ResearchEventType,
  runEndOf,
  type StoredEvent,
  type TerminalEvent,
  terminalEventTypes,
} from "./events.ts";
export { REPORT_LANGUAGES, type ReportLanguage, type ReportLanguageSetting } from "./language.ts";
export type { ResearcherStopReason } from "./phases/directive/researcher.ts";
export type { CoverageReport } from "./phases/supervision/coverage.ts";
export {
  type QuestionStatus,
  questionStatuses,
  type StoredAnswerCitation,
} from "./questions/types.ts";
export { protectCode } from "./report/citations/code.ts";
export { CITATION_MARKER, citationNumbersIn, parseCitationGroup } from "./report/citations/markers.ts";
export { citedRuns, collectCitedSentences } from "./report/citations/sentences.ts";
export { buildSourcesSection, urlKey } from "./report/citations/source-list.ts";
export { entryText, reportBody, sourcesHeadingIndex, sourcesSectionAt } from "./report/parts.ts";
export type { ReportCitationStats } from "./report/synthesis.ts";
export { type Claim, extractClaims } from "./report/versions/claims.ts";
export {
  CLAIM_MATCH_THRESHOLD,
  type DiffSource,
  diffReports,
  type ReportVersion,
  type VersionDiff,
  type VersionSource,
  versionsDiffer,
} from "./report/versions/diff.ts";
export { claimWords } from "./report/versions/words.ts";
export { REPORT_WORDS, type ReportWords, reportWords } from "./report/words/index.ts";
export * from "./vocabulary.ts";
