/**
 * One attempt at a run (a job's delivery): its checkpoint, and how its phase transitions are
 * written. A transition is one write of status, phase and the checkpoint when it changed, then one
 * block of the events held for it (the attempt's start, the finished phase's end) with the next
 * phase's start; held items are written on their own only when no transition follows (settle).
 */
import { phaseCompleted } from "../telemetry/scopes.ts";
import { loadCheckpoint, type RunCheckpoint, STATE_VERSION } from "./checkpoint.ts";
import type { EngineDeps } from "./deps.ts";
import { emitAll, type StoredEvent } from "./events.ts";
import type { KnowledgeItemRecord, RunSnapshot } from "./store.ts";
import type { RunPhase, RunStatus } from "./vocabulary.ts";
import { deferWrite } from "./writes-behind.ts";

/** One attempt at a run: what the phase steps share. */
export interface AttemptState {
  deps: EngineDeps;
  checkpoint: RunCheckpoint;
  question: string;
  /**
   * The run row as this attempt found it. What the engine reads from it (question, clarification,
   * brief once written) changes only between attempts, or by the engine's own writes it tracks.
   */
  snapshot: RunSnapshot;
  /**
   * Events written with the next status change, in order: the start's, a finished phase's. Each
   * stretch between model calls then costs one event write instead of one per event (flushEvents).
   */
  pending: StoredEvent[];
  /** The checkpoint changed and is written with the next status change (writeStatus) or by settle. */
  checkpointDirty: boolean;
  /** Established knowledge of the run's owner, loaded when a phase first needs it. */
  knowledgeItems?: KnowledgeItemRecord[];
  /** The report and sources as the knowledge phase read them; the run's end counts from them. */
  ending?: { report: { markdown: string } | undefined; sources: number };
}

/**
 * Counts the attempt in the checkpoint and marks the run running; its start (or resume) is
 * announced with the first phase it starts, in one write (flushEvents), or on its own before
 * anything else is written.
 */
export async function beginAttempt(deps: EngineDeps, snapshot: RunSnapshot): Promise<AttemptState> {
  const checkpoint = await loadCheckpoint(deps, snapshot.checkpoint, snapshot.stateVersion);
  checkpoint.attempts += 1;
  const start: StoredEvent =
    checkpoint.attempts > 1 || snapshot.phase
      ? { type: "run.resumed", phase: snapshot.phase, attempt: checkpoint.attempts }
      : { type: "run.started", attempt: checkpoint.attempts };
  const a: AttemptState = {
    deps,
    checkpoint,
    question: snapshot.question,
    snapshot,
    pending: [start],
    checkpointDirty: true,
  };
  // The first phase's start writes the attempt's count with its status and phase; only a run with
  // no phase left to start (its end, a clarification awaited) marks itself running here.
  if (!firstPhaseStarts(a)) await writeStatus(a, { status: "running" });
  return a;
}

/** Whether this attempt's first step is a startPhase (which sets the status to running with its phase). */
function firstPhaseStarts(a: AttemptState): boolean {
  const { clarification } = a.deps.config;
  if (clarification && !isDone(a, "clarification")) {
    if (!a.snapshot.clarificationQuestion) return true;
    if (!a.snapshot.clarificationAnswer) return false;
  }
  return (["brief", "supervision", "synthesis", "knowledge"] as const).some((p) => !isDone(a, p));
}

/** A status change, with the checkpoint when it changed since it was last written (one write). */
export async function writeStatus(
  a: AttemptState,
  patch: { status: RunStatus; phase?: RunPhase },
): Promise<void> {
  await a.deps.store.setStatus({ ...patch, ...checkpointIfDirty(a) });
  a.checkpointDirty = false;
}

function checkpointIfDirty(a: AttemptState) {
  return a.checkpointDirty ? { checkpoint: { ...a.checkpoint }, stateVersion: STATE_VERSION } : {};
}

/** What is held for the next status change, written without one: the checkpoint, then the events. */
export async function settle(a: AttemptState): Promise<void> {
  if (a.checkpointDirty) {
    await a.deps.store.saveCheckpoint({ ...a.checkpoint }, STATE_VERSION);
    a.checkpointDirty = false;
  }
  await flushEvents(a);
}

/** Writes the events held for the next status change (the attempt's start, a finished phase) and `more`, in one block. */
export async function flushEvents(a: AttemptState, more: readonly StoredEvent[] = []): Promise<void> {
  const events = [...a.pending, ...more];
  a.pending = [];
  await emitAll(a.deps.events, events);
}

export function isDone(a: AttemptState, phase: RunPhase): boolean {
  return a.checkpoint.done.includes(phase);
}

/**
 * Status, phase and checkpoint in one write, then the events held for it and phase.started as one
 * block. With `behind`, both are deferred behind the phase's first model call (writes-behind.ts):
 * what they write is taken now, so nothing the phase does later changes it.
 */
export async function startPhase(
  a: AttemptState,
  phase: RunPhase,
  opts: { behind?: boolean } = {},
): Promise<number> {
  if (!opts.behind) {
    await writeStatus(a, { status: "running", phase });
    await flushEvents(a, [{ type: "phase.started", phase }]);
    return a.deps.clock.now();
  }
  const status = { status: "running" as const, phase, ...checkpointIfDirty(a) };
  const events: StoredEvent[] = [...a.pending, { type: "phase.started", phase }];
  a.checkpointDirty = false;
  a.pending = [];
  await deferWrite(a.deps, async (d) => {
    await d.store.setStatus(status);
    await emitAll(d.events, events);
  });
  return a.deps.clock.now();
}

/**
 * The phase is marked done in the checkpoint and phase.completed is held: both are written with
 * the next status change (the next phase's start: one write, then one event block) or, when none
 * follows, by settle (the run's end, an error). The checkpoint is always written before the event.
 */
export async function finishPhase(a: AttemptState, phase: RunPhase, started: number): Promise<void> {
  await flushEvents(a);
  a.checkpoint.done.push(phase);
  a.checkpointDirty = true;
  const durationMs = a.deps.clock.now() - started;
  a.pending.push({ type: "phase.completed", phase, durationMs });
  phaseCompleted(phase, durationMs);
}
