/** Approving a run's plan (POST /api/runs/:id/directives with approvePlan, and the run page's plan review). */
import {
  type DirectiveEdit,
  type DirectiveEditProblem,
  editPendingDirectives,
} from "../../../db/queries/directives.ts";
import { lockOwnerRunSlots, requeueWithApprovedPlan } from "../../../db/queries/runs.ts";
import { AppError } from "../../errors.ts";
import { withEventTransaction } from "../../jobs/event-sink.ts";
import { getBoss } from "../../jobs/queue.ts";
import { admitWaitingRuns, runSlotLimitsFromEnv } from "../../jobs/run-slots.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { type DirectivePriority, directiveTitle, type PlanChange } from "../../research/index.ts";
import { ownedRun } from "./owned.ts";
import { insertUserDirective } from "./steer.ts";

export type PlanEdit = DirectiveEdit;

/**
 * Plan review: apply the person's edits to the proposed (pending) directives, add the ones they
 * wrote, mark the plan approved in the checkpoint and put the run back in the queue, all in one
 * transaction (a refused edit or addition changes nothing).
 */
export async function approvePlan(
  rt: Runtime,
  id: string,
  ownerId: string,
  edits: PlanEdit[],
  add: { topic: string; priority: DirectivePriority }[] = [],
): Promise<void> {
  const db = rt.handle.db;
  await ownedRun(db, id, ownerId);
  const boss = await getBoss(rt.handle);
  const updated = await withEventTransaction(db, rt.bus, async (tx, events) => {
    await lockOwnerRunSlots(tx, ownerId);
    const row = await requeueWithApprovedPlan(tx, id);
    if (!row) return undefined;
    const problem = await editPendingDirectives(tx, id, edits);
    if (problem) throw planEditError(problem);
    for (const input of add) {
      await insertUserDirective(tx, events, id, input, "Added by the run's owner when approving the plan.");
    }
    await events.append(id, {
      type: "plan.approved",
      edited: edits.length > 0,
      changes: edits.map(planChange),
    });
    await admitWaitingRuns(tx, boss, ownerId, runSlotLimitsFromEnv(), id);
    return row;
  });
  if (!updated) throw new AppError("conflict", "The run is not waiting for plan review.");
}

/** An edit as the directive now stores it (the same title rule as editPendingDirectives). */
function planChange(e: PlanEdit): PlanChange {
  if (e.drop) return { directiveId: e.id, dropped: true };
  return {
    directiveId: e.id,
    ...(e.topic ? { topic: e.topic, title: directiveTitle(null, e.topic) } : {}),
    ...(e.priority ? { priority: e.priority } : {}),
  };
}

/** A plan edit that cannot apply, as the caller's error (the transaction rolls back: nothing changes). */
function planEditError(problem: DirectiveEditProblem): AppError {
  if (problem.kind === "not_pending") {
    return new AppError(
      "validation_failed",
      `Directive ${problem.id} is not a pending directive of this run.`,
    );
  }
  return new AppError(
    "conflict",
    `Two directives would have the same topic "${problem.topic}" after these edits; topics must differ (ignoring case and punctuation).`,
    { details: { topic: problem.topic, directiveIds: problem.directiveIds } },
  );
}
