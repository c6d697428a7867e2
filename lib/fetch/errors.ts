/** Why a fetch was refused or failed; callers branch on this, never on message text. */
export type FetchRefusalReason =
  | "invalid_url"
  | "scheme"
  | "credentials"
  | "private_address"
  | "dns_failed"
  | "too_many_redirects"
  | "too_large"
  | "timeout"
  | "content_type"
  | "http_error"
  | "aborted"
  | "network";

export class FetchRefusedError extends Error {
  readonly reason: FetchRefusalReason;
  /** The URL being fetched when the refusal happened (a redirect hop, not necessarily the original). */
  readonly url: string;
  /** HTTP status, set for `http_error`. */
  readonly status?: number;

  constructor(
    reason: FetchRefusalReason,
    url: string,
    message: string,
    options?: { status?: number; cause?: unknown },
  ) {
    super(message, { cause: options?.cause });
    this.name = "FetchRefusedError";
    this.reason = reason;
    this.url = url;
    this.status = options?.status;
  }
}

/**
 * Raised inside the connector (DNS answer or connect target refused). It travels through undici as
 * the `cause` of its "fetch failed" TypeError; safeFetch turns it into a FetchRefusedError with the URL.
 */
export class ConnectRefusal extends Error {
  readonly reason: "private_address" | "dns_failed";
  readonly host: string;

  constructor(reason: "private_address" | "dns_failed", host: string, message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "ConnectRefusal";
    this.reason = reason;
    this.host = host;
  }
}

/** The ConnectRefusal somewhere in an error's cause chain (undici wraps it, sometimes in an AggregateError). */
export function findConnectRefusal(e: unknown): ConnectRefusal | undefined {
  for (let cur = e, depth = 0; cur instanceof Error && depth < 8; cur = cur.cause, depth++) {
    if (cur instanceof ConnectRefusal) return cur;
    if (cur instanceof AggregateError) {
      const inner = cur.errors.find((x) => x instanceof ConnectRefusal);
      if (inner) return inner;
    }
  }
  return undefined;
}
