/**
 * Follow-up questions are answered as pg-boss jobs, like runs: a question asked while the app is
 * killed is answered after the restart, and a job delivered twice answers once (claimQuestion).
 */
import type { PgBoss } from "pg-boss";
import { type Db, queueTransaction } from "../../../db/client.ts";
import { setQuestionJobId } from "../../../db/queries/questions.ts";
import { queueSettingsFromEnv } from "../queue.ts";

export const QUESTION_QUEUE = "run-question";

export interface QuestionJobData {
  questionId: string;
}

export async function ensureQuestionQueue(boss: PgBoss): Promise<void> {
  const settings = queueSettingsFromEnv();
  const options = {
    heartbeatSeconds: settings.heartbeatSeconds,
    retryLimit: 3,
    retryDelay: 1,
    // An answer is one model call and a citation check: an hour is far beyond it.
    expireInSeconds: 3600,
    notify: true,
  };
  if (!(await boss.getQueue(QUESTION_QUEUE))) await boss.createQueue(QUESTION_QUEUE, options);
  else await boss.updateQueue(QUESTION_QUEUE, options);
  // Fill pg-boss's queue cache outside a transaction (see ensureQueue in ../queue.ts).
  await boss.getJobById(QUESTION_QUEUE, "00000000-0000-4000-8000-000000000000");
}

/** Enqueues the question's job in the caller's transaction: no question row without its job. */
export async function enqueueQuestion(boss: PgBoss, tx: Db, questionId: string): Promise<string> {
  const id = await boss.send(QUESTION_QUEUE, { questionId } satisfies QuestionJobData, {
    db: queueTransaction(tx),
    singletonKey: questionId,
  });
  if (!id) throw new Error(`the queue refused the job for question ${questionId}`);
  await setQuestionJobId(tx, questionId, id);
  return id;
}
