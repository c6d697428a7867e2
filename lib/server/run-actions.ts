/**
 * What the API does to runs, beyond reading them: create-and-enqueue (one transaction), cancel,
 * steer with a user directive, answer a clarification. Each checks the run's state and changes
 * nothing when the request does not apply.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { appendEvent } from "../../db/queries/events.ts";
import { getRunForOwner } from "../../db/queries/runs.ts";
import { createDbRunStore, normalizeTopic } from "../../db/research-store.ts";
import { directives, type Run, runs, terminalRunStatuses } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { createRunEventSink } from "../jobs/event-sink.ts";
import { cancelQueuedJob, enqueueRun, getBoss } from "../jobs/queue.ts";
import type { Runtime } from "../jobs/runtime.ts";
import type { ResearchEvent } from "../research/events.ts";
import { findNearDuplicate } from "../research/phases/supervision/dedup.ts";

/** The API's own events go through the same sink as the engine's: stored with the next seq, then announced. */
const emit = (rt: Runtime, db: Db, runId: string, event: ResearchEvent) =>
  createRunEventSink(db, rt.bus, runId).emit(event);

export async function createAndEnqueueRun(
  rt: Runtime,
  input: { ownerId: string; question: string; settings: Record<string, unknown> },
): Promise<Run> {
  const boss = await getBoss(rt.handle);
  const db = rt.handle.db;
  const run = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [row] = await t.insert(runs).values(input).returning();
    await appendEvent(t, row.id, "run.created", { question: row.question, settings: row.settings });
    await enqueueRun(boss, t, row.id);
    return row;
  });
  await rt.bus.publish({ kind: "event", runId: run.id, seq: 1, type: "run.created" });
  return run;
}

async function ownedRun(db: Db, id: string, ownerId: string): Promise<Run> {
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
  const [idle] = await db
    .update(runs)
    .set({
      status: "cancelled",
      cancelRequestedAt: sql`now()`,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(runs.id, id),
        inArray(runs.status, ["queued", "awaiting_clarification", "awaiting_plan_review"]),
      ),
    )
    .returning();
  if (idle) {
    if (idle.jobId) await cancelQueuedJob(await getBoss(rt.handle), idle.jobId).catch(() => {});
    await emit(rt, db, id, { type: "run.cancelled", reason: "cancelled by the user before it ran" });
    return { status: "cancelled" };
  }
  // Running: the worker watches for this flag and the bus message, aborts in-flight calls, and ends the run.
  await db.update(runs).set({ cancelRequestedAt: sql`now()` }).where(eq(runs.id, id));
  await rt.bus.publish({ kind: "cancel", runId: id });
  return { status: "cancelling" };
}

export async function addUserDirective(
  rt: Runtime,
  id: string,
  ownerId: string,
  input: { topic: string; priority: "critical" | "normal" | "low" },
): Promise<{ id: string }> {
  const db = rt.handle.db;
  const run = await ownedRun(db, id, ownerId);
  if (terminalRunStatuses.includes(run.status)) {
    throw new AppError("conflict", `The run has already ended (${run.status}); it cannot be steered.`);
  }
  const store = createDbRunStore(db, id);
  // The same near-duplicate rule the supervisor applies to its own follow-ups.
  const near = findNearDuplicate(input.topic, await store.listDirectives());
  if (near) {
    throw new AppError("conflict", "The run already has a directive that says nearly the same.", {
      details: { duplicateOf: near.id, similarity: Number(near.similarity.toFixed(2)) },
    });
  }
  const round = (await store.listRounds()).length;
  const { created, duplicates } = await store.addDirectives([
    { round, topic: input.topic, priority: input.priority, origin: "user" },
  ]);
  if (!created.length) {
    throw new AppError("conflict", "The run already has this directive.", {
      details: { duplicateOf: duplicates[0]?.duplicateOf },
    });
  }
  const d = created[0];
  await emit(rt, db, id, {
    type: "directive.created",
    directiveId: d.id,
    round: d.round,
    topic: d.topic,
    priority: d.priority,
    origin: "user",
  });
  return { id: d.id };
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
  const updated = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [row] = await t
      .update(runs)
      .set({ clarificationAnswer: answer, status: "queued", updatedAt: sql`now()` })
      .where(and(eq(runs.id, id), eq(runs.status, "awaiting_clarification")))
      .returning();
    if (!row) return undefined;
    await appendEvent(t, id, "clarification.answered", { answer });
    await enqueueRun(boss, t, id);
    return row;
  });
  if (!updated) throw new AppError("conflict", "The run is not waiting for a clarification.");
  await rt.bus.publish({
    kind: "event",
    runId: id,
    seq: updated.lastEventSeq,
    type: "clarification.answered",
  });
}

export interface PlanEdit {
  id: string;
  topic?: string;
  priority?: "critical" | "high" | "normal" | "low";
  drop?: boolean;
}

/**
 * Plan review: apply the person's edits to the proposed (pending) directives, mark the plan
 * approved in the checkpoint and put the run back in the queue, all in one transaction.
 */
export async function approvePlan(
  rt: Runtime,
  id: string,
  ownerId: string,
  edits: PlanEdit[],
): Promise<void> {
  const db = rt.handle.db;
  await ownedRun(db, id, ownerId);
  const boss = await getBoss(rt.handle);
  const updated = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [row] = await t
      .update(runs)
      .set({
        status: "queued",
        checkpoint: sql`coalesce(${runs.checkpoint}, '{}'::jsonb) || '{"planApproved": true}'::jsonb`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(runs.id, id), eq(runs.status, "awaiting_plan_review")))
      .returning();
    if (!row) return undefined;
    for (const e of edits) {
      const patch = e.drop
        ? { status: "skipped" as const }
        : {
            ...(e.topic ? { topic: e.topic, normalizedTopic: normalizeTopic(e.topic) } : {}),
            ...(e.priority ? { priority: e.priority } : {}),
          };
      if (!Object.keys(patch).length) continue;
      const [d] = await t
        .update(directives)
        .set(patch)
        .where(and(eq(directives.id, e.id), eq(directives.runId, id), eq(directives.status, "pending")))
        .returning();
      if (!d)
        throw new AppError("validation_failed", `Directive ${e.id} is not a pending directive of this run.`);
    }
    await appendEvent(t, id, "plan.approved", { edited: edits.length > 0 });
    await enqueueRun(boss, t, id);
    return row;
  });
  if (!updated) throw new AppError("conflict", "The run is not waiting for plan review.");
  await rt.bus.publish({ kind: "event", runId: id, seq: updated.lastEventSeq + 1, type: "plan.approved" });
}
