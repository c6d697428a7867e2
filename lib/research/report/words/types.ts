import type { BecauseValues, RunFailureCode } from "../../because.ts";

/** Every word the code (not the model) puts into a report, in one language. */
export interface ReportWords {
  /** The heading of the list of cited sources. */
  sources: string;
  /** After a source whose page was read in full (the others rest on a search provider's text). */
  readInFull: string;
  /** Opens a notice that the report is partial, in bold. */
  partial: string;
  writtenEarly: (researched: number, planned: number, sources: number) => string;
  emptyReport: string;
  stoppedBeforeReport: (reason: string) => string;
  /** A run's phases as the subject of a sentence ("writing the report went over …"). */
  phaseNames: Record<string, string>;
  /** Why the run failed, by code, for the partial report's notice (`said` stays as it was said). */
  failure: Record<RunFailureCode, (values: BecauseValues) => string>;
  noFindings: string;
  /** The material did not fit the writing model even cut down; `leftOut` topics were dropped. */
  contextOverflow: (leftOut: number) => string;
  /** The download's section with the follow-up questions answered about the report. */
  questions: string;
  /** Sources the answers cite beyond the report's own. */
  furtherSources: string;
}
