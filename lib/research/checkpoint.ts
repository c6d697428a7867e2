/**
 * The run's checkpoint (runs.checkpoint): which phases are finished, how many attempts were made,
 * and where plan review stands. A finished phase is never run again, so a resumed run continues at
 * its first unfinished step.
 */
import type { EngineDeps } from "./deps.ts";
import type { RunPhase } from "./vocabulary.ts";

/** Shape version of runs.checkpoint written by this code. Bump it with a migration in loadCheckpoint. */
export const STATE_VERSION = 2;

export interface RunCheckpoint {
  /** Phases finished; a finished phase is never run again. */
  done: RunPhase[];
  attempts: number;
  /** Plan review: round 0 was planned and shown; a person approved it (set by the API). */
  planProposed?: boolean;
  planApproved?: boolean;
  /** The owner asked for the report now: gathering stopped and the report is written from what is there. */
  gatheringStopped?: boolean;
}

/**
 * Reads the stored checkpoint, migrating older shapes explicitly. Version 1 (the first engine)
 * stored only the current phase; its finished phases are the ones before it in pipeline order.
 */
export async function loadCheckpoint(
  deps: EngineDeps,
  raw: Record<string, unknown> | null,
  version: number,
): Promise<RunCheckpoint> {
  if (!raw) return { done: [], attempts: 0 };
  if (version === STATE_VERSION) {
    return {
      done: (raw.done as RunPhase[]) ?? [],
      attempts: Number(raw.attempts ?? 0),
      planProposed: raw.planProposed === true,
      planApproved: raw.planApproved === true,
      gatheringStopped: raw.gatheringStopped === true,
    };
  }
  if (version === 1) {
    const order: RunPhase[] = ["clarification", "brief", "supervision", "synthesis", "knowledge"];
    const current = raw.phase as RunPhase | undefined;
    const idx = current ? order.indexOf(current) : -1;
    const done = idx > 0 ? order.slice(0, idx) : [];
    await deps.events.emit({
      type: "run.legacy_resume",
      fromVersion: 1,
      toVersion: STATE_VERSION,
      note: `checkpoint of state version 1 (phase ${current ?? "none"}) migrated; resuming after ${done.join(", ") || "nothing"}`,
    });
    return { done, attempts: Number(raw.attempts ?? 0) };
  }
  throw new Error(`Run state version ${version} is newer than this worker understands (${STATE_VERSION}).`);
}
