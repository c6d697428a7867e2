/**
 * The one error type of the app. Every failure a caller can act on has a code; the code decides
 * the HTTP status, so route handlers never pick numbers themselves.
 */
export const errorStatus = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  quota_exceeded: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  not_configured: 409,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  /** Response headers that belong to the error, e.g. `Retry-After` on a 429. */
  readonly headers?: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; details?: unknown; headers?: Record<string, string> },
  ) {
    super(message, { cause: options?.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options?.details;
    this.headers = options?.headers;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toJSON() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/**
 * PostgreSQL's SQLSTATEs for text it cannot store: 22021 "invalid byte sequence" (U+0000 in text)
 * and 22P05 "unsupported Unicode escape sequence" (\u0000 in jsonb). Every boundary strips NUL
 * (lib/nul.ts); one that slips through is still the caller's text, not a server fault.
 */
const unstorableTextStates = new Set(["22021", "22P05"]);

/**
 * The AppError a database error stands for, when it is the caller's: text with characters the
 * database cannot store (found anywhere in the error's cause chain: drizzle wraps the driver's error).
 */
export function callerErrorFromDatabase(e: unknown): AppError | undefined {
  for (let at = e, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string" && unstorableTextStates.has(code)) {
      return new AppError(
        "bad_request",
        "The request contains characters that cannot be stored (such as the NUL character U+0000). Remove them and try again.",
        { cause: e },
      );
    }
  }
  return undefined;
}
