/**
 * Ask a follow-up question about a run's report: stored and enqueued in one transaction with its
 * `question.asked` event; a worker answers it (lib/jobs/questions). Another person's run is a 404,
 * a run without a report a 409.
 */
import type { PgBoss } from "pg-boss";
import { insertQuestion } from "../../../db/queries/questions.ts";
import { getReport } from "../../../db/queries/research.ts";
import { getRunForOwner } from "../../../db/queries/runs.ts";
import { AppError } from "../../errors.ts";
import { withEventTransaction } from "../../jobs/event-sink.ts";
import { enqueueQuestion, ensureQuestionQueue } from "../../jobs/questions/queue.ts";
import { getBoss } from "../../jobs/queue.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import type { AskQuestionRequest } from "./schemas.ts";

const ready = new WeakSet<PgBoss>();

export async function askQuestion(
  rt: Runtime,
  runId: string,
  ownerId: string,
  input: AskQuestionRequest,
): Promise<{ id: string; eventSeq: number }> {
  const db = rt.handle.db;
  const run = await getRunForOwner(db, runId, ownerId);
  if (!run) throw new AppError("not_found", "No such run.");
  if (!(await getReport(db, runId))) {
    throw new AppError("conflict", "This run has no report yet: questions are about a finished report.");
  }
  const boss = await getBoss(rt.handle);
  if (!ready.has(boss)) {
    await ensureQuestionQueue(boss);
    ready.add(boss);
  }
  return withEventTransaction(db, rt.bus, async (tx, events) => {
    const row = await insertQuestion(tx, runId, input.question);
    await enqueueQuestion(boss, tx, row.id);
    const event = await events.append(runId, {
      type: "question.asked",
      questionId: row.id,
      question: row.question,
    });
    // The page follows the run's stream from here for the answer's deltas and its end.
    return { id: row.id, eventSeq: event.seq };
  });
}
