/**
 * At most RUNS_MAX_ACTIVE_PER_USER runs of one owner run at a time; more wait in status `queued`
 * without a job, first come first served, up to RUNS_MAX_QUEUED_PER_USER, beyond which creating a
 * run is refused (429). A waiting run gets its job when a slot frees: whenever one of the owner's
 * runs ends or stops to wait for a person, and in every worker's periodic sweep (so a crash between
 * a run's end and its successor's admission delays the successor, never strands it). Every
 * decision runs in a transaction holding the owner's advisory lock, so concurrent requests and
 * several worker processes never admit more runs than there are slots.
 */
import type { PgBoss } from "pg-boss";
import type { Db } from "../../db/client.ts";
import { appendEvent } from "../../db/queries/events.ts";
import {
  countRunSlots,
  getRun,
  lockOwnerRunSlots,
  lockWaitingRuns,
  ownersWithWaitingRuns,
} from "../../db/queries/runs.ts";
import { type Env, envNumber } from "../env.ts";
import { enqueueRun } from "./queue.ts";

export interface RunSlotLimits {
  /** Runs of one owner carried by a job (queued for a worker, or running) at once. */
  maxActive: number;
  /** Runs of one owner waiting for a slot; creating one more is refused. */
  maxQueued: number;
}

export function runSlotLimitsFromEnv(env: Env = process.env): RunSlotLimits {
  return {
    maxActive: envNumber(env, "RUNS_MAX_ACTIVE_PER_USER", 3, { min: 1, integer: true }),
    maxQueued: envNumber(env, "RUNS_MAX_QUEUED_PER_USER", 10, { min: 0, integer: true }),
  };
}

/**
 * Gives the owner's oldest waiting runs a job while slots are free. Call inside a transaction
 * that holds lockOwnerRunSlots; returns the ids admitted. `self` is the run whose own action
 * (created, plan approved, clarification answered) caused this: its event already tells its page.
 */
export async function admitWaitingRuns(
  tx: Db,
  boss: PgBoss,
  ownerId: string,
  limits: RunSlotLimits,
  self: string | null = null,
): Promise<string[]> {
  const { active } = await countRunSlots(tx, ownerId);
  const admitted: string[] = [];
  for (const run of await lockWaitingRuns(tx, ownerId, limits.maxActive - active)) {
    await enqueueRun(boss, tx, run.id);
    admitted.push(run.id);
  }
  if (admitted.length) await announceQueuePositions(tx, ownerId, admitted, self);
  return admitted;
}

/**
 * The queue moved: each admitted run learns it has a slot, each run still waiting its new place,
 * as events, so a page following a queued run needs no polling. Written in the admitting
 * transaction; the event stream's poll delivers them.
 */
async function announceQueuePositions(
  tx: Db,
  ownerId: string,
  admitted: readonly string[],
  self: string | null,
): Promise<void> {
  for (const id of admitted) {
    if (id !== self) await appendEvent(tx, id, { type: "run.queue_position", position: null });
  }
  const still = await lockWaitingRuns(tx, ownerId, 1000);
  for (const [i, run] of still.entries()) {
    await appendEvent(tx, run.id, { type: "run.queue_position", position: i + 1 });
  }
}

/**
 * Whether one more run of the owner fits: it would start at once, or wait within the queue limit.
 * Call inside a transaction that holds lockOwnerRunSlots, before inserting the run.
 */
export async function hasRoomForRun(tx: Db, ownerId: string, limits: RunSlotLimits): Promise<boolean> {
  const { active, waiting } = await countRunSlots(tx, ownerId);
  const startsNow = Math.max(0, Math.min(limits.maxActive - active, waiting + 1));
  return waiting + 1 - startsNow <= limits.maxQueued;
}

/** Admits the owner's waiting runs into free slots, in a transaction of its own. */
export async function promoteWaitingRuns(
  db: Db,
  boss: PgBoss,
  ownerId: string,
  limits = runSlotLimitsFromEnv(),
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await lockOwnerRunSlots(t, ownerId);
    return admitWaitingRuns(t, boss, ownerId, limits);
  });
}

/** After a run's job ends: its slot may be free, so the owner's next waiting run may start. */
export async function promoteAfterRun(db: Db, boss: PgBoss, runId: string): Promise<string[]> {
  const run = await getRun(db, runId);
  return run ? promoteWaitingRuns(db, boss, run.ownerId) : [];
}

/** Every owner's waiting runs into free slots: the periodic catch-up of the workers' sweep. */
export async function promoteAllWaitingRuns(db: Db, boss: PgBoss, limits = runSlotLimitsFromEnv()) {
  const admitted: string[] = [];
  for (const ownerId of await ownersWithWaitingRuns(db)) {
    admitted.push(...(await promoteWaitingRuns(db, boss, ownerId, limits)));
  }
  return admitted;
}
