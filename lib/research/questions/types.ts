/** The words of a follow-up question's life and the citation shape stored with its answer. */
import type { Because } from "../because.ts";
import type { CitationSupport } from "../vocabulary.ts";

export const questionStatuses = ["queued", "answering", "answered", "not_in_sources", "failed"] as const;
export type QuestionStatus = (typeof questionStatuses)[number];

/** One [N] of an answer: the thread's number of a read source, its verdict and the passage it rests on. */
export interface StoredAnswerCitation {
  n: number;
  sourceId: string;
  sentence: string;
  support: CitationSupport;
  reason: string;
  /** The reason as data, said in the reader's language (absent from answers stored before it). */
  because?: Because | null;
  passage: string | null;
}
