/**
 * Every query on the `runs` table, as small named functions: the API, the worker, the sweeper and
 * the engine's store write a run only through these. Conditional updates (`… where status in …`)
 * return the row when they applied and nothing when the run was not in that state, so two callers
 * racing for one transition change the run once.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import type { Because, Degradation } from "../../lib/research/ui.ts";
import type { Db } from "../client.ts";
import { type NewRun, type Run, type RunStatus, runs, terminalRunStatuses } from "../schema.ts";

/** No worker is working on a run in these: cancelling ends it on the spot. */
const idleStatuses: RunStatus[] = ["queued", "awaiting_clarification", "awaiting_plan_review"];
/** A job should be carrying a run in these; the sweeper ends the run when none is. */
const jobStatuses: RunStatus[] = ["queued", "running"];

const touched = () => ({ updatedAt: sql`now()` });

export async function createRun(
  db: Db,
  input: Pick<NewRun, "ownerId" | "question" | "settings" | "brief" | "parentId" | "versionOf">,
): Promise<Run> {
  // The time of the insert, not of the transaction's start: a run created under its owner's slot
  // lock then sorts after every run created before it took the lock (first come, first served).
  const [row] = await db
    .insert(runs)
    .values({ ...input, createdAt: sql`clock_timestamp()` })
    .returning();
  return row;
}

/** A run as its owner sees it; another owner's run is indistinguishable from a missing one. */
export async function getRunForOwner(db: Db, id: string, ownerId: string): Promise<Run | undefined> {
  const [row] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.id, id), eq(runs.ownerId, ownerId)));
  return row;
}

export async function getRun(db: Db, id: string): Promise<Run | undefined> {
  const [row] = await db.select().from(runs).where(eq(runs.id, id));
  return row;
}

/**
 * What an event stream needs to tell whether a run has ended: its status and the seq of its last
 * event (two columns, not the wide row with its brief, checkpoint and usage).
 */
export async function getRunProgress(
  db: Db,
  id: string,
): Promise<{ status: RunStatus; lastEventSeq: number } | undefined> {
  const [row] = await db
    .select({ status: runs.status, lastEventSeq: runs.lastEventSeq })
    .from(runs)
    .where(eq(runs.id, id));
  return row;
}

export async function listRunsForOwner(db: Db, ownerId: string, limit = 100): Promise<Run[]> {
  return db.select().from(runs).where(eq(runs.ownerId, ownerId)).orderBy(desc(runs.createdAt)).limit(limit);
}

/** The questions of the owner's runs among `ids`, by run id (e.g. to label knowledge items). */
export async function runQuestionsForOwner(
  db: Db,
  ownerId: string,
  ids: readonly string[],
): Promise<Record<string, string>> {
  if (!ids.length) return {};
  const rows = await db
    .select({ id: runs.id, question: runs.question })
    .from(runs)
    .where(and(eq(runs.ownerId, ownerId), inArray(runs.id, [...ids])));
  return Object.fromEntries(rows.map((r) => [r.id, r.question]));
}

/** One write per transition: status, phase and error together; a terminal status sets finished_at. */
export async function updateRunStatus(
  db: Db,
  id: string,
  patch: Partial<Pick<Run, "status" | "phase" | "brief" | "error" | "usage" | "checkpoint" | "stateVersion">>,
): Promise<Run | undefined> {
  const finished =
    patch.status && terminalRunStatuses.includes(patch.status as RunStatus) ? { finishedAt: new Date() } : {};
  const [row] = await db
    .update(runs)
    .set({ ...patch, ...finished, ...touched() })
    .where(eq(runs.id, id))
    .returning();
  return row;
}

/**
 * Ends a run that has not ended yet: terminal status, phase, error and finished_at in one write.
 * Undefined when it had already ended (a duplicate job, a cancel that got there first).
 */
export async function endRun(
  db: Db,
  id: string,
  end: { status: RunStatus; phase?: Run["phase"]; error: string | null; errorBecause: Because | null },
): Promise<Run | undefined> {
  const [row] = await db
    .update(runs)
    .set({ ...end, finishedAt: sql`now()`, ...touched() })
    .where(and(eq(runs.id, id), notInArray(runs.status, [...terminalRunStatuses])))
    .returning();
  return row;
}

/** Stores the clarification question and sets the run waiting for its answer, in one write. */
export async function askRunClarification(db: Db, id: string, question: string): Promise<void> {
  await db
    .update(runs)
    .set({
      clarificationQuestion: question,
      status: "awaiting_clarification",
      phase: "clarification",
      ...touched(),
    })
    .where(eq(runs.id, id));
}

export async function saveRunBrief(db: Db, id: string, brief: string): Promise<void> {
  await db
    .update(runs)
    .set({ brief, ...touched() })
    .where(eq(runs.id, id));
}

export async function saveRunCheckpoint(
  db: Db,
  id: string,
  checkpoint: Record<string, unknown>,
  stateVersion: number,
): Promise<void> {
  await db
    .update(runs)
    .set({ checkpoint, stateVersion, ...touched() })
    .where(eq(runs.id, id));
}

export async function saveRunUsage(db: Db, id: string, usage: Record<string, unknown>): Promise<void> {
  await db
    .update(runs)
    .set({ usage, ...touched() })
    .where(eq(runs.id, id));
}

/**
 * Adds a step's fallback to the run unless the run already has one for that step and round (a
 * resumed attempt falling back again); true when it was added.
 */
export async function addRunDegradation(db: Db, id: string, d: Degradation): Promise<boolean> {
  const rows = await db
    .update(runs)
    .set({ degradations: sql`${runs.degradations} || ${JSON.stringify([d])}::jsonb`, ...touched() })
    .where(
      and(
        eq(runs.id, id),
        sql`not ${runs.degradations} @> ${JSON.stringify([{ step: d.step, round: d.round }])}::jsonb`,
      ),
    )
    .returning({ id: runs.id });
  return rows.length > 0;
}

/**
 * Locks the run's row until the transaction ends, to serialise writers of one run's rows (e.g.
 * directive ordinals). FOR NO KEY UPDATE, the lock an UPDATE of the row takes: it waits for the
 * event counter's bump (appendEvent) but not for inserts that merely reference the run.
 */
export async function lockRunRow(tx: Db, id: string): Promise<void> {
  await tx.select({ id: runs.id }).from(runs).where(eq(runs.id, id)).for("no key update");
}

/** Remembers which queue job carries the run (so a queued run can be cancelled in the queue). */
export async function setRunJobId(db: Db, id: string, jobId: string): Promise<void> {
  await db.update(runs).set({ jobId }).where(eq(runs.id, id));
}

/** The first attempt's start time: set once, kept by every resumed attempt. */
export async function markRunStarted(db: Db, id: string, at: Date): Promise<Date> {
  const [row] = await db
    .update(runs)
    .set({ startedAt: sql`coalesce(${runs.startedAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(runs.id, id))
    .returning({ startedAt: runs.startedAt });
  return row?.startedAt ?? at;
}

export async function isRunCancelRequested(db: Db, id: string): Promise<boolean> {
  return (await runStopRequests(db, id)).cancel;
}

/** What the owner has asked a running run's worker to do: cancel it, or stop researching and write the report. */
export async function runStopRequests(db: Db, id: string): Promise<{ cancel: boolean; finish: boolean }> {
  const [row] = await db
    .select({ cancel: runs.cancelRequestedAt, finish: runs.finishRequestedAt })
    .from(runs)
    .where(eq(runs.id, id));
  return { cancel: Boolean(row?.cancel), finish: Boolean(row?.finish) };
}

/**
 * Flags a run that is researching (running, in supervision, neither cancelled nor already asked)
 * to write its report now. Undefined when the run is not in that state: nothing changes.
 */
export async function requestRunFinish(db: Db, id: string): Promise<Run | undefined> {
  const [row] = await db
    .update(runs)
    .set({ finishRequestedAt: sql`now()` })
    .where(
      and(
        eq(runs.id, id),
        eq(runs.status, "running"),
        eq(runs.phase, "supervision"),
        isNull(runs.finishRequestedAt),
        isNull(runs.cancelRequestedAt),
      ),
    )
    .returning();
  return row;
}

/** Flags a running run for cancellation; its worker watches the flag (and the bus) and ends it. */
export async function requestRunCancel(db: Db, id: string): Promise<void> {
  await db.update(runs).set({ cancelRequestedAt: sql`now()` }).where(eq(runs.id, id));
}

/** Ends a run nobody is working on (queued or waiting for the person) as cancelled. */
export async function cancelIdleRun(db: Db, id: string): Promise<Run | undefined> {
  const [row] = await db
    .update(runs)
    .set({ status: "cancelled", cancelRequestedAt: sql`now()`, finishedAt: sql`now()`, ...touched() })
    .where(and(eq(runs.id, id), inArray(runs.status, idleStatuses)))
    .returning();
  return row;
}

/**
 * Stores the clarification answer and queues the run again, if it was waiting for one. The run
 * waits for a slot like a new one (no job yet); admitting it is the caller's next step.
 */
export async function requeueWithClarificationAnswer(
  db: Db,
  id: string,
  answer: string,
): Promise<Run | undefined> {
  const [row] = await db
    .update(runs)
    .set({ clarificationAnswer: answer, status: "queued", jobId: null, ...touched() })
    .where(and(eq(runs.id, id), eq(runs.status, "awaiting_clarification")))
    .returning();
  return row;
}

/**
 * Marks the plan approved in the checkpoint and queues the run again, if it was waiting for review;
 * like a new run it waits for a slot (no job yet) until the caller admits it.
 */
export async function requeueWithApprovedPlan(db: Db, id: string): Promise<Run | undefined> {
  const [row] = await db
    .update(runs)
    .set({
      status: "queued",
      jobId: null,
      checkpoint: sql`coalesce(${runs.checkpoint}, '{}'::jsonb) || '{"planApproved": true}'::jsonb`,
      ...touched(),
    })
    .where(and(eq(runs.id, id), eq(runs.status, "awaiting_plan_review")))
    .returning();
  return row;
}

/** Runs that should be carried by a job and have not been touched since `idleBefore`. */
export async function listRunsToSweep(db: Db, idleBefore: Date): Promise<{ id: string; jobId: string }[]> {
  const rows = await db
    .select({ id: runs.id, jobId: runs.jobId })
    .from(runs)
    .where(and(inArray(runs.status, jobStatuses), isNotNull(runs.jobId), lt(runs.updatedAt, idleBefore)));
  return rows.flatMap((r) => (r.jobId ? [{ id: r.id, jobId: r.jobId }] : []));
}

/** Ends a run whose job was given up on as failed, unless it ended meanwhile. */
export async function failAbandonedRun(
  db: Db,
  id: string,
  reason: string,
  errorBecause: Because,
): Promise<Run | undefined> {
  const [row] = await db
    .update(runs)
    .set({ status: "failed", error: reason, errorBecause, finishedAt: sql`now()`, ...touched() })
    .where(and(eq(runs.id, id), inArray(runs.status, jobStatuses)))
    .returning();
  return row;
}

// Run slots (lib/jobs/run-slots.ts). A queued run without a job waits for one of its owner's slots;
// a queued run with a job, and a running one, holds a slot. Runs waiting for a person hold none.
const waiting = and(eq(runs.status, "queued"), isNull(runs.jobId));
const holdingSlot = and(inArray(runs.status, jobStatuses), isNotNull(runs.jobId));

/** Arbitrary constant: the advisory-lock namespace of the per-owner slot lock. */
const SLOT_LOCK_NAMESPACE = 7_301_977;

/**
 * Serialises slot decisions for one owner (admitting, queueing) across transactions and processes
 * until the transaction ends. Only one statement takes it, so it cannot deadlock with itself.
 */
export async function lockOwnerRunSlots(tx: Db, ownerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SLOT_LOCK_NAMESPACE}, hashtext(${ownerId}))`);
}

/** How many of the owner's runs hold a slot and how many wait for one. */
export async function countRunSlots(db: Db, ownerId: string): Promise<{ active: number; waiting: number }> {
  const rows = await db
    .select({ waiting: sql<boolean>`${runs.jobId} is null`, n: count() })
    .from(runs)
    .where(and(eq(runs.ownerId, ownerId), or(waiting, holdingSlot)))
    .groupBy(sql`${runs.jobId} is null`);
  return {
    active: rows.find((r) => !r.waiting)?.n ?? 0,
    waiting: rows.find((r) => r.waiting)?.n ?? 0,
  };
}

/** The owner's oldest `limit` runs waiting for a slot, first come first served, locked for admission. */
export async function lockWaitingRuns(tx: Db, ownerId: string, limit: number): Promise<Run[]> {
  if (limit <= 0) return [];
  return tx
    .select()
    .from(runs)
    .where(and(eq(runs.ownerId, ownerId), waiting))
    .orderBy(asc(runs.createdAt), asc(runs.id))
    .limit(limit)
    .for("update");
}

/** 1 for the owner's next run to start, 2 for the one after; null for a run not waiting for a slot. */
export async function queuePosition(db: Db, run: Run): Promise<number | null> {
  if (run.status !== "queued" || run.jobId !== null) return null;
  const [row] = await db
    .select({ ahead: count() })
    .from(runs)
    .where(
      and(
        eq(runs.ownerId, run.ownerId),
        waiting,
        // Compared in SQL: created_at has microseconds, a JS Date only milliseconds.
        sql`(${runs.createdAt}, ${runs.id}) < (select r.created_at, r.id from runs r where r.id = ${run.id})`,
      ),
    );
  return (row?.ahead ?? 0) + 1;
}

/** Owners with runs waiting for a slot (for the periodic promotion that survives crashes). */
export async function ownersWithWaitingRuns(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ ownerId: runs.ownerId }).from(runs).where(waiting);
  return rows.map((r) => r.ownerId);
}
