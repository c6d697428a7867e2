/**
 * The run's follow-up questions as a share link shows them, when its owner included the thread:
 * each question with its status, its answer and the answer's citations under the report's rules
 * (a private library document's passage and the check's reason, its paraphrase, stay with the owner).
 *
 * @internal to lib/server/shares/: part of the shared report (view.ts), not an action.
 */
import type { Db } from "../../../db/client.ts";
import { listRunQuestions } from "../../../db/queries/questions.ts";
import type { RunQuestion } from "../../../db/schema.ts";
import type { SharedCitation } from "./view.ts";

export interface SharedQuestion {
  id: string;
  question: string;
  status: RunQuestion["status"];
  /** Markdown whose [N] are the thread's numbers of the run's sources (the report's where it cites them). */
  answer: string | null;
  citations: SharedCitation[];
}

export async function sharedThread(
  db: Db,
  runId: string,
  privateIds: ReadonlySet<string>,
): Promise<SharedQuestion[]> {
  return (await listRunQuestions(db, runId)).map((q) => ({
    id: q.id,
    question: q.question,
    status: q.status,
    answer: q.answer,
    citations: q.citations.map((c) => {
      const hidden = privateIds.has(c.sourceId);
      return {
        number: c.n,
        sourceId: c.sourceId,
        sentence: c.sentence,
        support: c.support,
        reason: hidden ? null : c.reason || null,
        because: hidden ? null : (c.because ?? null),
        passage: hidden ? null : c.passage,
      };
    }),
  }));
}
