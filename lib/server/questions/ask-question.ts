/**
 * Ask a follow-up question about a run's report: stored and enqueued in one transaction with its
 * `question.asked` event; a worker answers it (lib/jobs/questions). Another person's run is a 404,
 * a run without a report a 409.
 */
import type { PgBoss } from "pg-boss";
import type { Db } from "../../../db/client.ts";
import { insertQuestion } from "../../../db/queries/questions.ts";
import { getReport } from "../../../db/queries/research.ts";
import { getRunForOwner } from "../../../db/queries/runs.ts";
import { costSince, getUserLimits } from "../../../db/queries/user-limits.ts";
import { AppError } from "../../errors.ts";
import { withEventTransaction } from "../../jobs/event-sink.ts";
import { enqueueQuestion, ensureQuestionQueue } from "../../jobs/questions/queue.ts";
import { getBoss } from "../../jobs/queue.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { monthStartUtc } from "../accounts/limits.ts";
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
  await assertMonthlyRoom(db, ownerId);
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

/** An answer costs model calls: refused (429) once the owner's runs have reached their monthly limit. */
async function assertMonthlyRoom(db: Db, ownerId: string): Promise<void> {
  const monthly = (await getUserLimits(db, ownerId))?.monthlyCostLimitUsd ?? null;
  if (monthly === null) return;
  const spent = await costSince(db, ownerId, monthStartUtc(new Date()));
  if (spent >= monthly) {
    throw new AppError(
      "rate_limited",
      `Your runs this month have cost $${spent.toFixed(2)}, which reaches your monthly limit of $${monthly.toFixed(2)}: questions cost model calls too. The limit starts again on the 1st (UTC).`,
      { details: { spentUsd: spent, monthlyCostLimitUsd: monthly } },
    );
  }
}
