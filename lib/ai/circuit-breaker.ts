/**
 * A circuit breaker per provider, per process: after `failureThreshold` failures in a row that
 * concern the whole provider (bad key, no quota, outage after retries), calls stop going to it
 * (open) while the chain has another model to go to; after `cooldownMs` one trial call is let
 * through (half-open): its success closes the breaker, its failure opens it for another cooldown.
 */
export type BreakerState = "closed" | "open" | "half_open";

export type BreakerPolicy = {
  /** Failures in a row that open the breaker. */
  failureThreshold: number;
  /** How long an open breaker refuses calls before it lets one trial through. */
  cooldownMs: number;
};

export const DEFAULT_BREAKER_POLICY: BreakerPolicy = { failureThreshold: 5, cooldownMs: 60_000 };

export type CircuitBreaker = {
  readonly state: BreakerState;
  /** Whether a call may go to the provider now; in half-open, true for one trial at a time. */
  allow(): boolean;
  success(): void;
  failure(): void;
  /** When an open breaker lets its next trial through (ms on the injected clock). */
  readonly retryAt: number | undefined;
};

export function createCircuitBreaker(policy: BreakerPolicy, now: () => number = Date.now): CircuitBreaker {
  let failures = 0;
  let openedAt: number | undefined;
  // A trial that never reports (its call was cancelled) does not hold the breaker half-open forever:
  // another is let through a cooldown later.
  let trialAt: number | undefined;

  const state = (): BreakerState => {
    if (openedAt === undefined) return "closed";
    return now() - openedAt >= policy.cooldownMs ? "half_open" : "open";
  };

  return {
    get state() {
      return state();
    },
    get retryAt() {
      return openedAt === undefined ? undefined : openedAt + policy.cooldownMs;
    },
    allow() {
      const s = state();
      if (s === "closed") return true;
      if (s === "open") return false;
      if (trialAt !== undefined && now() - trialAt < policy.cooldownMs) return false;
      trialAt = now();
      return true;
    },
    success() {
      failures = 0;
      openedAt = undefined;
      trialAt = undefined;
    },
    failure() {
      failures++;
      trialAt = undefined;
      if (openedAt !== undefined || failures >= policy.failureThreshold) openedAt = now();
    },
  };
}
