/**
 * Writes the answer to a follow-up question: from the report and the retrieved passages, citing
 * the thread's fixed source numbers; then every [N] that names no read source is removed and each
 * citation gets its verdict and passage from the report's own citation check. An answer with no
 * passage to stand on, or with no supported sentence, is `not_in_sources`: it is not shown as an
 * answer, so nothing the sources do not say passes for one.
 */
import type { TokenUsage } from "../../ai/usage.ts";
import type { EngineDeps } from "../deps.ts";
import {
  type QuestionPassage,
  questionInstructions,
  questionPrompt,
  type ThreadTurn,
} from "../prompts/questions.ts";
import { stripBibliography } from "../report/citations/bibliography.ts";
import { protectCode } from "../report/citations/code.ts";
import { rewriteCitationRuns } from "../report/citations/markers.ts";
import { collectCitedSentences } from "../report/citations/sentences.ts";
import { checkCitationSupport } from "../report/support.ts";
import type { SourceRecord } from "../store.ts";
import type { StoredAnswerCitation } from "./types.ts";

export interface AnswerInput {
  question: string;
  report: string;
  /** The last questions of the thread with their answers, oldest first. */
  thread: readonly ThreadTurn[];
  /** Retrieved passages, best first (already above the retrieval threshold). */
  passages: readonly { sourceId: string; text: string }[];
  /** The thread's numbers of the run's read sources (numbering.ts). */
  numbered: ReadonlyMap<number, SourceRecord>;
}

export interface AnswerOutcome {
  status: "answered" | "not_in_sources";
  /** Markdown with [N] → `numbered`; null when the sources do not answer the question. */
  answer: string | null;
  citations: StoredAnswerCitation[];
  model: string | null;
  usage: TokenUsage | null;
}

/** How many of the most recent earlier questions go with a new one. */
export const THREAD_CONTEXT = 3;

const NOT_IN_SOURCES: AnswerOutcome = {
  status: "not_in_sources",
  answer: null,
  citations: [],
  model: null,
  usage: null,
};

export async function answerQuestion(
  deps: EngineDeps,
  input: AnswerInput,
  onDelta?: (text: string) => void,
): Promise<AnswerOutcome> {
  if (!input.passages.length) return NOT_IN_SOURCES;
  const numberOf = new Map([...input.numbered].map(([n, s]) => [s.id, n]));
  const passages: QuestionPassage[] = input.passages.flatMap((p) => {
    const number = numberOf.get(p.sourceId);
    const source = input.numbered.get(number ?? -1);
    return source && number
      ? [{ number, title: source.title || source.url, url: source.url, text: p.text }]
      : [];
  });
  const result = await deps.models.text("synthesis", {
    instructions: questionInstructions(deps.config.reportLanguage),
    prompt: questionPrompt({
      question: input.question,
      report: input.report,
      thread: input.thread.slice(-THREAD_CONTEXT),
      passages,
    }),
    onTextDelta: onDelta,
    abortSignal: deps.signal,
  });
  const answer = resolvedAnswer(result.text, input.numbered);
  const citations = collectCitedSentences(answer).map(({ number, sentence }) => ({
    number,
    sourceId: (input.numbered.get(number) as SourceRecord).id,
    sentence,
  }));
  const checked = await checkCitationSupport(deps, { citations, sources: [...input.numbered.values()] });
  const supported = checked.records.some(
    (r) => r.support === "supported" || r.support === "partially_supported",
  );
  if (!supported) return { ...NOT_IN_SOURCES, model: result.model, usage: result.usage };
  return {
    status: "answered",
    answer,
    citations: checked.records.map((r) => ({
      n: r.number,
      sourceId: r.sourceId,
      sentence: r.sentence,
      support: r.support,
      reason: r.reason ?? "",
      because: r.because ?? null,
      passage: r.passage ?? null,
    })),
    model: result.model,
    usage: result.usage,
  };
}

/** The model's text with only [N] that name a read source of the thread, and no bibliography of its own. */
function resolvedAnswer(text: string, numbered: ReadonlyMap<number, SourceRecord>): string {
  const { text: guarded, restore } = protectCode(text.replace(/\r\n?/g, "\n"));
  const { markdown } = stripBibliography(guarded);
  const kept = rewriteCitationRuns(markdown, (numbers) => numbers.filter((n) => numbered.has(n)));
  return restore(kept).trim();
}
