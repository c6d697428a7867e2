/**
 * Answering a run's clarifying question (POST /api/runs/:id/clarification and the run page's form;
 * skipping sends a fixed answer): the run goes back in its owner's queue with the answer, in one
 * transaction with its event, and gets its job when one of the owner's slots is free.
 */
import { lockOwnerRunSlots, requeueWithClarificationAnswer } from "../../../db/queries/runs.ts";
import { AppError } from "../../errors.ts";
import { withEventTransaction } from "../../jobs/event-sink.ts";
import { getBoss } from "../../jobs/queue.ts";
import { admitWaitingRuns, runSlotLimitsFromEnv } from "../../jobs/run-slots.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { ownedRun } from "./owned.ts";

export async function answerClarification(
  rt: Runtime,
  id: string,
  ownerId: string,
  answer: string,
): Promise<void> {
  const db = rt.handle.db;
  await ownedRun(db, id, ownerId);
  const boss = await getBoss(rt.handle);
  const updated = await withEventTransaction(db, rt.bus, async (tx, events) => {
    await lockOwnerRunSlots(tx, ownerId);
    const row = await requeueWithClarificationAnswer(tx, id, answer);
    if (!row) return undefined;
    await events.append(id, { type: "clarification.answered", answer });
    await admitWaitingRuns(tx, boss, ownerId, runSlotLimitsFromEnv(), id);
    return row;
  });
  if (!updated) throw new AppError("conflict", "The run is not waiting for a clarification.");
}
