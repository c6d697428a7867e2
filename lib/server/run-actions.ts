/**
 * What the API does to runs, beyond reading them: create-and-enqueue, cancel, steer with a user
 * directive, answer a clarification, approve the plan. Each checks the run's state and changes
 * nothing when the request does not apply. Each change is one transaction with its event (and its
 * queue job): the event is announced after COMMIT with the seq it was written with. A run that is
 * to run waits for one of its owner's slots (lib/jobs/run-slots.ts) and gets its job when it has one.
 */
import type { Db } from "../../db/client.ts";
import {
  type DirectiveEdit,
  type DirectiveEditProblem,
  editPendingDirectives,
} from "../../db/queries/directives.ts";
import {
  cancelIdleRun,
  createRun,
  getRun,
  getRunForOwner,
  lockOwnerRunSlots,
  lockRunRow,
  queuePosition,
  requestRunCancel,
  requestRunFinish,
  requeueWithApprovedPlan,
  requeueWithClarificationAnswer,
} from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { type Run, terminalRunStatuses } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { AppError } from "../errors.ts";
import { effectiveConfig } from "../jobs/effective-config.ts";
import { type EventLog, withEventTransaction } from "../jobs/event-sink.ts";
import { cancelQueuedJob, getBoss } from "../jobs/queue.ts";
import { assertSourceTextRoom } from "../jobs/quotas.ts";
import { runCeilingsFromEnv, runCeilingViolations } from "../jobs/run-limits.ts";
import {
  admitWaitingRuns,
  hasRoomForRun,
  promoteWaitingRuns,
  runSlotLimitsFromEnv,
} from "../jobs/run-slots.ts";
import type { Runtime } from "../jobs/runtime.ts";
import { findNearDuplicate } from "../research/phases/supervision/dedup.ts";
import type { DirectivePriority } from "../research/vocabulary.ts";
import { withModelChains } from "./settings/effective.ts";
import { applyUserLimits } from "./user-limits.ts";

export type PlanEdit = DirectiveEdit;

/**
 * Creates the run and, when its owner has a free slot, its job; otherwise it waits in the owner's
 * queue (`queuePosition` 1 is next). Settings above the server's ceilings are refused (422), and
 * so is a run beyond the owner's queue limit or their own limits (429, lib/server/user-limits.ts),
 * and a run of an owner whose stored source text has reached QUOTA_SOURCE_TEXT_MB (413).
 */
export async function createAndEnqueueRun(
  rt: Runtime,
  input: { ownerId: string; question: string; settings: Record<string, unknown> },
  env: Env = process.env,
): Promise<Run & { queuePosition: number | null; warnings: string[] }> {
  // The run keeps the chains of models it was created with, whatever the settings say later.
  const effective = await effectiveConfig(rt.handle.db, env);
  const { settings, warnings } = withModelChains(input.settings, effective);
  const issues = runCeilingViolations(settings, runCeilingsFromEnv(effective.env));
  if (issues.length) {
    throw new AppError("validation_failed", `Invalid request: ${issues.join("; ")}`, { details: issues });
  }
  await assertSourceTextRoom(rt.handle.db, input.ownerId, effective.env);
  const limits = runSlotLimitsFromEnv(effective.env);
  const boss = await getBoss(rt.handle);
  return withEventTransaction(rt.handle.db, rt.bus, async (tx, events) => {
    await lockOwnerRunSlots(tx, input.ownerId);
    if (!(await hasRoomForRun(tx, input.ownerId, limits))) {
      throw new AppError(
        "rate_limited",
        `You have as many runs as this server takes from one user: ${limits.maxActive} running and ${limits.maxQueued} waiting. Wait for one to finish, or cancel one.`,
        { details: { maxActive: limits.maxActive, maxQueued: limits.maxQueued } },
      );
    }
    // The person's own limits (set by an admin): may refuse, or lower the run's cost budget.
    const limited = await applyUserLimits(tx, input.ownerId, settings, new Date(), effective.env);
    const created = await createRun(tx, { ...input, settings: limited });
    await events.append(created.id, {
      type: "run.created",
      question: created.question,
      settings: created.settings,
      ...(warnings.length ? { warnings } : {}),
    });
    const admitted = await admitWaitingRuns(tx, boss, input.ownerId, limits);
    const run = admitted.includes(created.id) ? ((await getRun(tx, created.id)) ?? created) : created;
    return { ...run, queuePosition: await queuePosition(tx, run), warnings };
  });
}

/** The owner's run, or a 404 (another owner's run is indistinguishable from a missing one). */
export async function ownedRun(db: Db, id: string, ownerId: string): Promise<Run> {
  const run = await getRunForOwner(db, id, ownerId);
  if (!run) throw new AppError("not_found", "No such run.");
  return run;
}

export async function cancelRun(rt: Runtime, id: string, ownerId: string): Promise<{ status: string }> {
  const db = rt.handle.db;
  const run = await ownedRun(db, id, ownerId);
  if (terminalRunStatuses.includes(run.status)) {
    throw new AppError("conflict", `The run has already ended (${run.status}).`);
  }
  // Not being worked on: end it here, atomically, so a worker picking the job up sees it ended.
  const idle = await withEventTransaction(db, rt.bus, async (tx, events) => {
    const row = await cancelIdleRun(tx, id);
    if (row)
      await events.append(id, { type: "run.cancelled", reason: "cancelled by the user before it ran" });
    return row;
  });
  if (idle) {
    const boss = await getBoss(rt.handle);
    if (idle.jobId) await cancelQueuedJob(boss, idle.jobId).catch(() => {});
    // A queued run with a job held a slot: the owner's next waiting run may start.
    await promoteWaitingRuns(db, boss, ownerId);
    return { status: "cancelled" };
  }
  // Running: the worker watches for this flag and the bus message, aborts in-flight calls, and ends the run.
  await requestRunCancel(db, id);
  await rt.bus.publish({ kind: "cancel", runId: id });
  return { status: "cancelling" };
}

/**
 * "Stop and write the report now": a run that is researching stops gathering and writes its report
 * from what it has (the run ends completed, the report marked partial). Refused (409) when there is
 * nothing to stop: a run not yet researching, already writing, already asked, or ended.
 */
export async function finishRunNow(rt: Runtime, id: string, ownerId: string): Promise<{ status: string }> {
  const db = rt.handle.db;
  const run = await ownedRun(db, id, ownerId);
  if (terminalRunStatuses.includes(run.status)) {
    throw new AppError("conflict", `The run has already ended (${run.status}).`);
  }
  if (run.finishRequestedAt || run.phase === "synthesis" || run.phase === "knowledge") {
    throw new AppError("conflict", "The run is already writing its report.");
  }
  const flagged = await requestRunFinish(db, id);
  if (!flagged) {
    throw new AppError(
      "conflict",
      "The run is not researching yet, so there is nothing to write a report from. Cancel it instead.",
    );
  }
  await rt.bus.publish({ kind: "finish", runId: id });
  return { status: "finishing" };
}

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
    title: d.title,
    perspective: d.perspective,
    evidenceNeeded: d.evidenceNeeded,
    directiveType: d.type,
    rationale: d.rationale,
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
