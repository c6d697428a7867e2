/** Why a fetch was refused or failed; callers branch on this, never on message text. */
export const fetchRefusalReasons = [
  "invalid_url",
  "scheme",
  "credentials",
  "private_address",
  "dns_failed",
  "too_many_redirects",
  "too_large",
  "timeout",
  "content_type",
  "http_error",
  "aborted",
  "network",
] as const;

export type FetchRefusalReason = (typeof fetchRefusalReasons)[number];

/**
 * What a refusal's message says in numbers or in someone else's words, kept apart so a reader can
 * say it in another language: the limit that was passed (bytes, redirects, ms), the content type
 * refused, the network stack's own words.
 */
export interface FetchRefusalDetails {
  status?: number;
  limit?: number;
  contentType?: string;
  detail?: string;
}

export class FetchRefusedError extends Error {
  readonly reason: FetchRefusalReason;
  /** The URL being fetched when the refusal happened (a redirect hop, not necessarily the original). */
  readonly url: string;
  /** HTTP status, set for `http_error`. */
  readonly status?: number;
  /** The limit passed: bytes for `too_large`, redirects for `too_many_redirects`, ms for `timeout`. */
  readonly limit?: number;
  /** The refused type, for `content_type` ("" when the server sent none). */
  readonly contentType?: string;
  /** The network stack's own words, for `network`. */
  readonly detail?: string;

  constructor(
    reason: FetchRefusalReason,
    url: string,
    message: string,
    options?: FetchRefusalDetails & { cause?: unknown },
  ) {
    super(message, { cause: options?.cause });
    this.name = "FetchRefusedError";
    this.reason = reason;
    this.url = url;
    this.status = options?.status;
    this.limit = options?.limit;
    this.contentType = options?.contentType;
    this.detail = options?.detail;
  }
}

/** Why extraction failed: the document is unreadable, or it is over a limit of what is read. */
export const extractionFailures = ["unreadable", "too_many_pages", "timeout", "too_large"] as const;

export type ExtractionFailure = (typeof extractionFailures)[number];

/**
 * What a failure's message says in numbers or in the parser's own words, kept apart so a reader
 * can say it in another language: the PDF's pages and the page limit, the parse time limit in ms.
 */
export interface ExtractionDetails {
  pages?: number;
  limit?: number;
  detail?: string;
}

/** The fetched bytes could not be turned into text (corrupt PDF, unsupported type, over a limit). */
export class ExtractionError extends Error {
  readonly url: string;
  readonly reason: ExtractionFailure;
  readonly details: ExtractionDetails;

  constructor(
    url: string,
    message: string,
    cause?: unknown,
    reason: ExtractionFailure = "unreadable",
    details: ExtractionDetails = {},
  ) {
    super(message, { cause });
    this.name = "ExtractionError";
    this.url = url;
    this.reason = reason;
    this.details = details;
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
