/**
 * The engine's errors in one place. Errors no phase may swallow into a fallback: cancellation (the
 * run was cancelled), an exhausted budget (the orchestrator stops the run gracefully), a
 * configuration gap (not_configured: the run fails at once, naming what to set) and a full storage
 * quota (quota_exceeded: no more page text may be stored, so the run stops with what it has).
 * Everything else a phase may recover from with its documented fallback.
 */
import { abortError, isAbortError } from "../ai/errors.ts";
import { BudgetExceededError } from "../ai/usage.ts";
import { type AppError, isAppError } from "../errors.ts";
import type { RunPhase } from "./vocabulary.ts";

/**
 * Cancellation (the signal, or an AbortError from below), an exhausted budget, or a configuration
 * gap (a model or search provider without its key): no fallback can help with any of them, and a
 * gap fails every later call the same way, so the run ends at once saying what to set.
 */
export function isFatalEngineError(error: unknown, signal?: AbortSignal): boolean {
  return (
    Boolean(signal?.aborted) ||
    isAbortError(error) ||
    error instanceof BudgetExceededError ||
    isNotConfigured(error) ||
    isQuotaExceeded(error)
  );
}

/** An AppError `quota_exceeded` (lib/jobs/quotas.ts): which quota, its variable, in its message. */
export function isQuotaExceeded(error: unknown): error is AppError {
  return isAppError(error) && error.code === "quota_exceeded";
}

/** An AppError `not_configured` (ModelConfigError, SearchConfigError): what to set, in its message. */
export function isNotConfigured(error: unknown): error is AppError {
  return isAppError(error) && error.code === "not_configured";
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
 * The first line of a catch that otherwise falls back: a cancelled run (its own signal aborted),
 * an exhausted budget and a configuration gap go on up to the orchestrator; anything else is the caller's to recover
 * from. Only the run's signal counts as cancellation here, not an AbortError on its own.
 */
export function rethrowIfFatal(error: unknown, signal: AbortSignal): void {
  throwIfAborted(signal);
  if (error instanceof BudgetExceededError || isNotConfigured(error) || isQuotaExceeded(error)) throw error;
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
