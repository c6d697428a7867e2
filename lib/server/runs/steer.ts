/**
 * Steering a run as its owner: add a directive while it researches, answer its clarifying question,
 * approve (and edit) its plan. Each checks the run's state and changes nothing when the request
 * does not apply. Each change is one transaction with its event (and its queue job): the event is
 * announced after COMMIT with the seq it was written with. A run put back in the queue waits for one
 * of its owner's slots (lib/jobs/run-slots.ts) and gets its job when it has one.
 */
import type { Db } from "../../../db/client.ts";
import {
  type DirectiveEdit,
  type DirectiveEditProblem,
  editPendingDirectives,
} from "../../../db/queries/directives.ts";
import {
  getRun,
  lockOwnerRunSlots,
  lockRunRow,
  requeueWithApprovedPlan,
  requeueWithClarificationAnswer,
} from "../../../db/queries/runs.ts";
import { createDbRunStore } from "../../../db/research-store.ts";
import { type Run, terminalRunStatuses } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { type EventLog, withEventTransaction } from "../../jobs/event-sink.ts";
import { getBoss } from "../../jobs/queue.ts";
import { admitWaitingRuns, runSlotLimitsFromEnv } from "../../jobs/run-slots.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { findNearDuplicate } from "../../research/index.ts";
import type { DirectivePriority } from "../../research/ui.ts";
import { ownedRun } from "./owned.ts";

export type PlanEdit = DirectiveEdit;

/** Research has ended once the report is being written (or was asked for): steering no longer applies. */
function researchEnded(run: Run): boolean {
  return (
    Boolean(run.finishRequestedAt) ||
    run.phase === "synthesis" ||
    run.phase === "knowledge" ||
    run.phase === "done"
  );
}

export async function addUserDirective(
  rt: Runtime,
  id: string,
  ownerId: string,
  input: { topic: string; priority: DirectivePriority },
): Promise<{ id: string }> {
  const db = rt.handle.db;
  const run = await ownedRun(db, id, ownerId);
  if (terminalRunStatuses.includes(run.status)) {
    throw new AppError("conflict", `The run has already ended (${run.status}); it cannot be steered.`);
  }
  const directive = await withEventTransaction(db, rt.bus, async (tx, events) => {
    // Hold the run while checking its phase and duplicates: the engine's move to the report waits
    // for this transaction, and sweeps up a directive committed before it (skipLeftovers).
    await lockRunRow(tx, id);
    const current = await getRun(tx, id);
    if (current && researchEnded(current)) {
      throw new AppError(
        "conflict",
        "The run is writing its report; it can no longer be steered. Start a new run to research more.",
      );
    }
    return insertUserDirective(tx, events, id, input);
  });
  return { id: directive.id };
}

/**
 * Stores one directive of the run's owner and its event, in the caller's transaction (the run row
 * locked): refused (409) when the run already has it or one that says nearly the same, the same
 * rule the supervisor applies to its own follow-ups.
 */
async function insertUserDirective(
  tx: Db,
  events: EventLog,
  id: string,
  input: { topic: string; priority: DirectivePriority },
  rationale = "Requested by the run's owner while it ran.",
): Promise<{ id: string }> {
  const store = createDbRunStore(tx, id);
  const near = findNearDuplicate(input.topic, await store.listDirectives());
  if (near) {
    throw new AppError("conflict", "The run already has a directive that says nearly the same.", {
      details: { duplicateOf: near.id, similarity: Number(near.similarity.toFixed(2)) },
    });
  }
  const round = (await store.listRounds()).length;
  const { created, duplicates } = await store.addDirectives([
    { round, topic: input.topic, priority: input.priority, origin: "user", type: "user", rationale },
  ]);
  const d = created[0];
  if (!d) {
    throw new AppError("conflict", "The run already has this directive.", {
      details: { duplicateOf: duplicates[0]?.duplicateOf },
    });
  }
  await events.append(id, {
    type: "directive.created",
    directiveId: d.id,
    round: d.round,
    topic: d.topic,
    priority: d.priority,
    origin: "user",
  });
  return d;
}

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
    await admitWaitingRuns(tx, boss, ownerId, runSlotLimitsFromEnv());
    return row;
  });
  if (!updated) throw new AppError("conflict", "The run is not waiting for a clarification.");
}

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
    await events.append(id, { type: "plan.approved", edited: edits.length > 0 });
    await admitWaitingRuns(tx, boss, ownerId, runSlotLimitsFromEnv());
    return row;
  });
  if (!updated) throw new AppError("conflict", "The run is not waiting for plan review.");
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
