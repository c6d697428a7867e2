/**
 * Why a model call went on to the next model of its chain (failover.ts decides). A file of its own,
 * without imports, so the run page can share the words without loading the SDK.
 * `paused`: the provider's circuit breaker is open after repeated failures.
 */
export const failoverReasons = [
  "auth",
  "quota",
  "model_not_found",
  "refused",
  "unavailable",
  "paused",
] as const;
export type FailoverReason = (typeof failoverReasons)[number];
