import { APICallError } from "ai";
import { abortError, ModelTimeoutError } from "./errors.ts";
import { isQuotaError } from "./failover.ts";

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Abortable sleep: rejects with the signal's reason as soon as it aborts. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

// --- what is worth retrying ---------------------------------------------------------------

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

function isNetworkError(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
  if (error instanceof TypeError && /fetch failed|failed to fetch|terminated|socket/i.test(error.message))
    return true;
  return isNetworkError(error.cause, depth + 1);
}

/**
 * 429, 408, 5xx, network failures and our own per-attempt timeouts are transient. Any other
 * 4xx (bad key, bad parameter, unknown model) fails the same way every time, so it is not retried;
 * nor is a 429 that says the account is out of quota (waiting does not refill it).
 */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof ModelTimeoutError) return true;
  if (APICallError.isInstance(error)) {
    if (isQuotaError(error)) return false;
    const status = error.statusCode;
    if (status === undefined) return error.isRetryable || isNetworkError(error.cause);
    return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
  }
  return isNetworkError(error);
}

/**
 * The server's own wait hint in ms: `retry-after-ms`, `retry-after` (seconds or HTTP date), or
 * Google's `RetryInfo.retryDelay` ("17s") in the error body.
 */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(error.responseHeaders ?? {})) headers[k.toLowerCase()] = v;
  const ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers["retry-after"]?.trim();
  if (after) {
    if (/^\d+(\.\d+)?$/.test(after)) return Number.parseFloat(after) * 1000;
    const at = Date.parse(after);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  const google = error.responseBody?.match(/"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/);
  if (google) return Number.parseFloat(google[1]) * 1000;
  return undefined;
}

// --- retry loop ----------------------------------------------------------------------------

export type RetryPolicy = {
  /** Total attempts including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Cap on a server-requested wait; a longer Retry-After is shortened to this. */
  maxRetryAfterMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

export type RetryEvent = { attempt: number; delayMs: number; error: unknown };

export type RetryOptions = Partial<RetryPolicy> & {
  signal?: AbortSignal;
  isRetryable?: (error: unknown) => boolean;
  onRetry?: (event: RetryEvent) => void;
  sleep?: Sleep;
  random?: () => number;
};

export class RetriesExhaustedError extends Error {
  readonly attempts: number;

  constructor(attempts: number, lastError: unknown) {
    super(
      `gave up after ${attempts} attempts: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
      {
        cause: lastError,
      },
    );
    this.name = "RetriesExhaustedError";
    this.attempts = attempts;
  }
}

/** Delay before retry number `attempt` (1-based): the server's hint, else exponential backoff. */
export function retryDelay(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number {
  const hinted = retryAfterMs(error);
  if (hinted !== undefined) return Math.min(hinted, policy.maxRetryAfterMs);
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // "Equal jitter": at least half the backoff, so parallel researchers hitting the same 429 spread out.
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/**
 * Run `fn` until it succeeds, a non-retriable error occurs (rethrown as is), attempts run out
 * (RetriesExhaustedError with the last error as cause), or the signal aborts (its reason).
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const policy: RetryPolicy = {
    maxAttempts: opts.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts,
    baseDelayMs: opts.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: opts.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    maxRetryAfterMs: opts.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  };
  const isRetryable = opts.isRetryable ?? isRetryableError;
  const wait = opts.sleep ?? sleep;
  const random = opts.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) throw abortError(opts.signal);
    try {
      return await fn(attempt);
    } catch (error) {
      if (opts.signal?.aborted) throw abortError(opts.signal);
      if (!isRetryable(error)) throw error;
      if (attempt >= policy.maxAttempts) throw new RetriesExhaustedError(attempt, error);
      const delayMs = retryDelay(error, attempt, policy, random);
      opts.onRetry?.({ attempt, delayMs, error });
      await wait(delayMs, opts.signal);
    }
  }
}

// --- concurrency limit ---------------------------------------------------------------------

export type Limiter = {
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly active: number;
  readonly waiting: number;
  readonly max: number;
};

/** A FIFO semaphore. Waiting for a slot is abortable; a slot is always released. */
export function createLimiter(max: number): Limiter {
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError(`limiter size must be a positive integer, got ${max}`);
  let active = 0;
  const queue: Array<() => void> = [];

  const acquire = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      if (active < max) {
        active++;
        return resolve();
      }
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        active++;
        resolve();
      };
      const onAbort = () => {
        const i = queue.indexOf(grant);
        if (i >= 0) queue.splice(i, 1);
        reject(abortError(signal!));
      };
      queue.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });

  const release = () => {
    active--;
    queue.shift()?.();
  };

  return {
    async run(fn, signal) {
      await acquire(signal);
      try {
        return await fn();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    max,
  };
}

// --- per-attempt deadline ------------------------------------------------------------------

export type Deadline = {
  /** Aborts on caller cancellation or timeout; pass it to the SDK call. */
  signal: AbortSignal;
  /** Restart the timer (streams: the timeout measures inactivity, not total length). */
  touch(): void;
};

/**
 * Run `fn` with a timeout and the caller's signal. Rejects promptly on either, even if `fn`
 * ignores its signal: the caller never waits on a hung connection.
 */
export async function withDeadline<T>(
  fn: (deadline: Deadline) => Promise<T>,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<T> {
  const parent = opts.signal;
  if (parent?.aborted) throw abortError(parent);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let rejectRace: (e: unknown) => void = () => {};
  const race = new Promise<never>((_, reject) => {
    rejectRace = reject;
  });
  const fail = (reason: Error) => {
    rejectRace(reason);
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const arm = () => {
    if (timer) clearTimeout(timer);
    if (opts.timeoutMs > 0 && Number.isFinite(opts.timeoutMs)) {
      timer = setTimeout(() => fail(new ModelTimeoutError(opts.timeoutMs)), opts.timeoutMs);
    }
  };
  const onParentAbort = () => fail(abortError(parent!));
  parent?.addEventListener("abort", onParentAbort, { once: true });
  arm();
  const work = fn({
    signal: controller.signal,
    touch: () => {
      if (!controller.signal.aborted) arm();
    },
  });
  // If the race wins, the abandoned call may still reject later; that rejection is expected.
  work.catch(() => {});
  try {
    return await Promise.race([work, race]);
  } catch (error) {
    // The SDK may surface our abort as its own AbortError; report the real reason (timeout or cancel).
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
    parent?.removeEventListener("abort", onParentAbort);
  }
}
