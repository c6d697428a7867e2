import { AppError } from "../errors.ts";

/**
 * A model configuration problem (malformed spec, unknown provider, missing key). It is an
 * AppError with code `not_configured` so route handlers can surface it as a 409 unchanged.
 */
export class ModelConfigError extends AppError {
  readonly variable: string | undefined;

  constructor(message: string, options?: { variable?: string; cause?: unknown }) {
    super("not_configured", message, {
      cause: options?.cause,
      details: options?.variable ? { variable: options.variable } : undefined,
    });
    this.name = "ModelConfigError";
    this.variable = options?.variable;
  }
}

/** One attempt exceeded its deadline (the whole call for generate, inactivity for streams). */
export class ModelTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`model call timed out after ${timeoutMs} ms`);
    this.name = "ModelTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A model call that failed for good: a non-retriable provider error, or retries exhausted.
 * The message is readable enough to become a run's failure reason.
 */
export class ModelCallError extends Error {
  readonly role: string;
  readonly model: string;
  readonly attempts: number;
  readonly statusCode: number | undefined;
  readonly retryable: boolean;

  constructor(opts: {
    role: string;
    model: string;
    attempts: number;
    statusCode?: number;
    retryable: boolean;
    cause: unknown;
  }) {
    const detail = opts.cause instanceof Error ? opts.cause.message : String(opts.cause);
    const status = opts.statusCode ? ` (HTTP ${opts.statusCode})` : "";
    const tries = opts.attempts > 1 ? ` after ${opts.attempts} attempts` : "";
    super(`${opts.role} model ${opts.model} failed${tries}${status}: ${detail}`, { cause: opts.cause });
    this.name = "ModelCallError";
    this.role = opts.role;
    this.model = opts.model;
    this.attempts = opts.attempts;
    this.statusCode = opts.statusCode;
    this.retryable = opts.retryable;
  }
}

/** The error a cancelled call rejects with: the signal's own reason when it is an Error. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === "string" ? reason : "The operation was aborted.", "AbortError");
}

export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof Error || (typeof DOMException === "function" && error instanceof DOMException)) &&
    (error.name === "AbortError" || error.name === "ResponseAborted")
  );
}
