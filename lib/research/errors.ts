/**
 * The engine's errors in one place. Errors no phase may swallow into a fallback: cancellation (the
 * run was cancelled) and an exhausted budget (the orchestrator stops the run gracefully).
 * Everything else a phase may recover from with its documented fallback.
 */
import { abortError, isAbortError } from "../ai/errors.ts";
import { BudgetExceededError } from "../ai/usage.ts";
import type { RunPhase } from "./vocabulary.ts";

/** Cancellation (the signal, or an AbortError from below) or an exhausted budget. */
export function isFatalEngineError(error: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || isAbortError(error) || error instanceof BudgetExceededError;
}

/** Rethrows fatal errors; returns the others' message for the fallback's event or log. */
export function recoverableMessage(error: unknown, signal?: AbortSignal): string {
  if (signal) throwIfAborted(signal);
  if (isFatalEngineError(error)) throw error;
  return error instanceof Error ? error.message : String(error);
}

/** Throws the signal's abort error (its reason when that is an Error) once the signal has aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

/**
 * The first line of a catch that otherwise falls back: a cancelled run (its own signal aborted)
 * and an exhausted budget go on up to the orchestrator; anything else is the caller's to recover
 * from. Only the run's signal counts as cancellation here, not an AbortError on its own.
 */
export function rethrowIfFatal(error: unknown, signal: AbortSignal): void {
  throwIfAborted(signal);
  if (error instanceof BudgetExceededError) throw error;
}

/** A phase ran past `phaseTimeoutMs`; the run ends failed with a partial report. */
export class PhaseTimeoutError extends Error {
  readonly phase: RunPhase;
  readonly limitMs: number;
  constructor(phase: RunPhase, limitMs: number) {
    super(`The ${phase} phase exceeded its time limit of ${Math.round(limitMs / 1000)} s.`);
    this.name = "PhaseTimeoutError";
    this.phase = phase;
    this.limitMs = limitMs;
  }
}

/** Why a run's signal was aborted; anything else aborting it counts as a cancellation. */
export type RunAbortReason =
  | { kind: "cancelled"; by: string }
  | { kind: "timeout"; limitMs: number }
  /** The worker is stopping: leave the run as it is for another worker to resume. */
  | { kind: "shutdown" };

/** The run-level reason behind an aborted run signal (cancel, time limit, worker shutdown). */
export function runAbortReason(signal: AbortSignal): RunAbortReason | undefined {
  if (!signal.aborted) return undefined;
  const r = signal.reason as Partial<RunAbortReason> | undefined;
  if (r && (r.kind === "cancelled" || r.kind === "timeout" || r.kind === "shutdown"))
    return r as RunAbortReason;
  return { kind: "cancelled", by: "an aborted signal" };
}
