/**
 * Errors no phase may swallow into a fallback: cancellation (the run was cancelled) and an
 * exhausted budget (the orchestrator stops the run gracefully). Everything else a phase may
 * recover from with its documented fallback.
 */
import { abortReason, isAbortError } from "../ai/errors.ts";
import { BudgetExceededError } from "../ai/usage.ts";

export function isFatalEngineError(error: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || isAbortError(error) || error instanceof BudgetExceededError;
}

/** Rethrows fatal errors; returns the others' message for the fallback's event or log. */
export function recoverableMessage(error: unknown, signal?: AbortSignal): string {
  if (signal?.aborted) throw abortReason(signal);
  if (isFatalEngineError(error)) throw error;
  return error instanceof Error ? error.message : String(error);
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortReason(signal);
}
