/**
 * When a failed call goes on to the next model of its role's chain, and why. Only failures the next
 * model may not share qualify: the provider refused the key or the account, has no quota left, does
 * not know the model, refused this request, or stayed unavailable through the retries. A
 * cancellation, a context-window overflow (the engine shortens the prompt), a spent budget and a
 * configuration gap are the run's own business and never switch models.
 */
import { APICallError } from "ai";
import { ModelCallError } from "./errors.ts";
import type { FailoverReason } from "./failover-reasons.ts";

export { type FailoverReason, failoverReasons } from "./failover-reasons.ts";

export type Failover = {
  reason: FailoverReason;
  /** One line for people: the status and the provider's own message, clipped. */
  detail: string;
  /** The failure concerns the whole provider (counts towards its circuit breaker). */
  providerWide: boolean;
};

// Out of credit or quota: retrying in a moment does not help. OpenAI answers a 429 with code
// insufficient_quota, Anthropic a 400 "Your credit balance is too low", others 402. (Google's 429
// "You exceeded your current quota" is a per-minute limit with a retryDelay: retried as a 429.)
const QUOTA =
  /insufficient_quota|credit balance is too low|insufficient (?:credits|balance|funds)|payment required/i;
const MODEL_NOT_FOUND =
  /model_not_found|the model .{1,120} does not exist|model .{1,120} not found|is not found for api version|unknown model|no such model/i;

function causeText(error: unknown): string {
  if (APICallError.isInstance(error)) return [error.message, error.responseBody ?? ""].join("\n");
  return error instanceof Error ? error.message : String(error);
}

/** A 429 or 400 that says the account is out of credit (not worth retrying, worth failing over). */
export function isQuotaError(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  return error.statusCode === 402 || QUOTA.test(causeText(error));
}

function clip(s: string, n = 240): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

/** The failover a failed call qualifies for, or undefined when it must fail (or be handled) as is. */
export function failoverFor(error: unknown): Failover | undefined {
  if (!(error instanceof ModelCallError)) return undefined;
  const status = error.statusCode;
  const cause = error.cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  const detail = clip(`${status ? `HTTP ${status}: ` : ""}${message}`);
  const text = causeText(cause);
  if (status === 402 || (status !== undefined && status < 500 && QUOTA.test(text))) {
    return { reason: "quota", detail, providerWide: true };
  }
  if (error.retryable) return { reason: "unavailable", detail, providerWide: true };
  if (status === 401 || status === 403) return { reason: "auth", detail, providerWide: true };
  if (status === 404 || MODEL_NOT_FOUND.test(text))
    return { reason: "model_not_found", detail, providerWide: false };
  if (status !== undefined && status >= 400 && status < 500)
    return { reason: "refused", detail, providerWide: false };
  return undefined;
}
