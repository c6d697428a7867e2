/** Follow-up questions about a run's report (issue 31): the thread, one row per question. */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Because, QuestionStatus, StoredAnswerCitation } from "../../lib/research/index.ts";
import type { Db } from "../client.ts";
import { type RunQuestion, runQuestions, runs } from "../schema.ts";

export async function insertQuestion(db: Db, runId: string, question: string): Promise<RunQuestion> {
  const [row] = await db
    .insert(runQuestions)
    .values({ runId, question, createdAt: sql`clock_timestamp()` })
    .returning();
  return row;
}

export async function setQuestionJobId(db: Db, id: string, jobId: string): Promise<void> {
  await db.update(runQuestions).set({ jobId }).where(eq(runQuestions.id, id));
}

/** The run's thread, oldest first. */
export async function listRunQuestions(db: Db, runId: string): Promise<RunQuestion[]> {
  return db
    .select()
    .from(runQuestions)
    .where(eq(runQuestions.runId, runId))
    .orderBy(asc(runQuestions.createdAt), asc(runQuestions.id));
}

/**
 * Takes the question for answering: queued, or left `answering` by a worker that died. Undefined
 * when it has already been answered (or failed): a job delivered twice answers once.
 */
export async function claimQuestion(db: Db, id: string): Promise<RunQuestion | undefined> {
  const [row] = await db
    .update(runQuestions)
    .set({ status: "answering" })
    .where(and(eq(runQuestions.id, id), inArray(runQuestions.status, ["queued", "answering"])))
    .returning();
  return row;
}

export interface QuestionEnd {
  status: Extract<QuestionStatus, "answered" | "not_in_sources" | "failed">;
  answer: string | null;
  citations: StoredAnswerCitation[];
  model: string | null;
  usage: Record<string, unknown>;
  error: string | null;
  errorBecause: Because | null;
}

/** Records the answer once: false when the question had already ended. */
export async function finishQuestion(db: Db, id: string, end: QuestionEnd): Promise<boolean> {
  const rows = await db
    .update(runQuestions)
    .set({ ...end, answeredAt: sql`now()` })
    .where(and(eq(runQuestions.id, id), eq(runQuestions.status, "answering")))
    .returning({ id: runQuestions.id });
  return rows.length > 0;
}

/** The run's usage row, locked until the caller's transaction ends (to add a question's cost). */
export async function lockRunUsage(db: Db, runId: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.select({ usage: runs.usage }).from(runs).where(eq(runs.id, runId)).for("update");
  return row?.usage;
}
