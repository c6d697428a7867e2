/**
 * Why a page could not be read, as a code the UI says in the page's language: lib/fetch's refusals
 * and extraction failures carry their own codes and numbers (lib/fetch knows nothing of the
 * engine's reasons, so the mapping lives here). A PDF over the page limit reaches the engine as
 * an ExtractionError (`too_many_pages`, with both counts). A failure whose numbers are missing, or
 * an error lib/fetch did not raise, keeps its English message as `said`.
 */
import {
  ExtractionError,
  type ExtractionFailure,
  type FetchRefusalReason,
  FetchRefusedError,
} from "../fetch/errors.ts";
import { type Because, because } from "./because.ts";

type FetchBecause = Because<Extract<Because["code"], `fetch_${string}`>>;

function hostOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).hostname.replace(/^\[|\]$/g, "") : undefined;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Each refusal's code and values; undefined when a value its words need is missing. */
const refusals: Record<FetchRefusalReason, (e: FetchRefusedError) => FetchBecause | undefined> = {
  invalid_url: () => because("fetch_invalid_url"),
  scheme: () => because("fetch_scheme"),
  credentials: () => because("fetch_credentials"),
  private_address: (e) => withValues("fetch_private_address", { host: hostOf(e.url) }),
  dns_failed: (e) => withValues("fetch_dns_failed", { host: hostOf(e.url) }),
  too_many_redirects: (e) => withValues("fetch_too_many_redirects", { max: e.limit }),
  too_large: (e) => withValues("fetch_too_large", { bytes: e.limit }),
  timeout: (e) => withValues("fetch_timeout", { seconds: e.limit && seconds(e.limit) }),
  content_type: (e) =>
    e.contentType === undefined
      ? undefined
      : because("fetch_content_type", { type: e.contentType || "none" }),
  http_error: (e) => withValues("fetch_http_error", { status: e.status }),
  aborted: () => because("fetch_aborted"),
  network: (e) => withValues("fetch_network", { said: e.detail }),
};

const extractions: Record<ExtractionFailure, (e: ExtractionError) => FetchBecause | undefined> = {
  unreadable: (e) =>
    e.details.detail
      ? because("fetch_parse_failed", { said: e.details.detail })
      : because("fetch_unreadable"),
  too_many_pages: (e) => withValues("fetch_too_many_pages", { pages: e.details.pages, max: e.details.limit }),
  timeout: (e) => withValues("fetch_parse_timeout", { seconds: e.details.limit && seconds(e.details.limit) }),
  too_large: () => because("fetch_parse_too_large"),
};

function withValues(
  code: FetchBecause["code"],
  values: Record<string, string | number | undefined>,
): FetchBecause | undefined {
  const given = Object.values(values).every((v) => v !== undefined && v !== "");
  return given ? because(code, values as Record<string, string | number>) : undefined;
}

/** A page that was fetched and parsed but has no text to read (the engine's own refusal). */
export class NoTextError extends Error {
  constructor() {
    super("the page has no readable text");
  }
}

/** Why fetching and reading a page failed: lib/fetch's code or the engine's, else the error's own words. */
export function fetchFailureBecause(error: unknown): FetchBecause {
  if (error instanceof NoTextError) return because("fetch_no_text");
  const coded =
    error instanceof FetchRefusedError
      ? refusals[error.reason]?.(error)
      : error instanceof ExtractionError
        ? extractions[error.reason]?.(error)
        : undefined;
  return coded ?? because("fetch_failed", { said: error instanceof Error ? error.message : String(error) });
}
