/** A phase's wall-clock limit, and its telemetry scope (spans and log lines carry the phase). */
import { phaseScope } from "../telemetry/scopes.ts";
import type { EngineDeps } from "./deps.ts";
import { PhaseTimeoutError } from "./errors.ts";
import type { RunPhase } from "./vocabulary.ts";

/**
 * Runs one phase under its own wall-clock limit: past it, the phase's signal aborts its in-flight
 * calls and the phase ends with a PhaseTimeoutError (the run's own signal is left alone).
 */
export async function withPhaseTimeout<T>(
  deps: EngineDeps,
  phase: RunPhase,
  fn: (d: EngineDeps) => Promise<T>,
): Promise<T> {
  const limitMs = deps.config.phaseTimeoutMs;
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new PhaseTimeoutError(phase, limitMs)), limitMs);
  try {
    return await phaseScope(phase, () =>
      fn({ ...deps, signal: AbortSignal.any([deps.signal, timer.signal]) }),
    );
  } catch (e) {
    if (timer.signal.aborted && !deps.signal.aborted) throw timer.signal.reason as PhaseTimeoutError;
    throw e;
  } finally {
    clearTimeout(handle);
  }
}
