/**
 * The browser's one way to call the app's JSON API (and better-auth's routes under /api/auth).
 * Our routes answer a failure as {error: {code, message}}, better-auth's as {code, message}; either
 * way the caller gets an ApiError with the code, the status and one sentence fit to show a person.
 */
import type { ErrorCode } from "@/lib/errors";

/** A failed call. `code` is the contract's error code (or better-auth's), `network` when unreachable. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | (string & {}) | "network";
  /** The error's parameters (limits, names), which a translated message can say (components/error-text.ts). */
  readonly details?: unknown;

  constructor(status: number, code: ApiError["code"], message: string, details?: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

interface ErrorBody {
  code?: string;
  message?: string;
  error?: { code?: string; message?: string; details?: unknown };
}

/** The ApiError for a failed response's status and (possibly empty or foreign) body. */
export function toApiError(status: number, body: ErrorBody | null): ApiError {
  const own = body?.error;
  const code = own?.code ?? body?.code ?? `http_${status}`;
  const message = own?.message ?? body?.message;
  // better-auth's limiter answers in its own words; the catalogue's rate_limited says when to try again.
  if (status === 429 && !own?.message) return new ApiError(status, "rate_limited", "");
  return new ApiError(status, code, message || `HTTP ${status}`, own?.details);
}

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; omit for no body. */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls one of the app's JSON routes and returns its answer (null for 204); throws ApiError.
 * Never cached: every answer is the person's own current data.
 */
export async function api<T>(url: string, { method = "GET", body, signal }: ApiRequest = {}): Promise<T> {
  let r: Response;
  try {
    r = await fetch(url, {
      method,
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { accept: "application/json", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(0, "network", "The server could not be reached. Check the connection and try again.");
  }
  const parsed = r.status === 204 ? null : await r.json().catch(() => null);
  if (!r.ok) throw toApiError(r.status, parsed);
  return parsed as T;
}

/** POST to one of better-auth's routes, e.g. authPost("/sign-in/email", {email, password}). */
export const authPost = <T = unknown>(path: string, body: unknown = {}) =>
  api<T>(`/api/auth${path}`, { method: "POST", body });

/** What to show a person for a failure, whatever was thrown. */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
