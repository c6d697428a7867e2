/** The thread of a run's follow-up questions, oldest first; another person's run is a 404. */
import { listRunQuestions } from "../../../db/queries/questions.ts";
import { getRunForOwner } from "../../../db/queries/runs.ts";
import type { RunQuestion } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import type { QuestionView } from "./schemas.ts";

export function questionView(q: RunQuestion): QuestionView {
  return {
    id: q.id,
    question: q.question,
    status: q.status,
    answer: q.answer,
    citations: q.citations.map((c) => ({
      n: c.n,
      sourceId: c.sourceId,
      sentence: c.sentence,
      support: c.support,
      reason: c.reason,
      because: c.because ?? null,
      passage: c.passage,
    })),
    model: q.model,
    error: q.error,
    errorBecause: q.errorBecause ?? null,
    createdAt: q.createdAt.toISOString(),
    answeredAt: q.answeredAt?.toISOString() ?? null,
  };
}

export async function listQuestions(rt: Runtime, runId: string, ownerId: string): Promise<QuestionView[]> {
  if (!(await getRunForOwner(rt.handle.db, runId, ownerId))) throw new AppError("not_found", "No such run.");
  return (await listRunQuestions(rt.handle.db, runId)).map(questionView);
}
