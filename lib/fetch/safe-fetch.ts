import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { fetch } from "undici";
import { metrics } from "../telemetry/metrics.ts";
import { withSpan } from "../telemetry/tracing.ts";
import { createHostAllowance, defaultPort } from "./allowed-hosts.ts";
import { ALLOWED_CONTENT_TYPES, parseContentType } from "./content-type.ts";
import { FetchRefusedError, findConnectRefusal } from "./errors.ts";
import { createGuardedAgent } from "./guarded-agent.ts";
import { isForbiddenAddress } from "./ip.ts";

export { parseAllowedHosts } from "./allowed-hosts.ts";
export { type FetchRefusalReason, FetchRefusedError, fetchRefusalReasons } from "./errors.ts";

export interface SafeFetchOptions {
  /** host or host:port entries that may resolve to private addresses (see parseAllowedHosts). */
  allowedHosts?: string[];
  /** Whole fetch, redirects and body included. Default 15 000 ms. */
  timeoutMs?: number;
  /** Decoded body size limit. Default 5 MB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  signal?: AbortSignal;
  userAgent?: string;
  /** DNS lookup used at connect time (tests inject one). Defaults to `dns.lookup`. */
  lookup?: LookupFunction;
}

export interface FetchedResource {
  /** Final URL after redirects. */
  url: string;
  status: number;
  /** Media type without parameters, lower case. */
  contentType: string;
  charset?: string;
  body: Uint8Array;
  /** URLs that answered with a redirect, in order; `[...redirects, url]` is the whole chain. */
  redirects: string[];
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_USER_AGENT = "DeepResearchBot/0.1 (self-hosted research assistant)";
const ACCEPT =
  "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.1";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

type HostAllowance = (hostname: string, port: number) => boolean;

/** Checks what can be checked without the network: syntax, scheme, credentials, IP-literal hosts. */
function checkUrl(raw: string, isAllowed: HostAllowance): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefusedError("invalid_url", raw, `Not a valid URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchRefusedError(
      "scheme",
      url.href,
      `Only http and https URLs are fetched, not ${url.protocol}`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new FetchRefusedError("credentials", url.href, "URLs with embedded credentials are not fetched");
  }
  // The URL parser has already normalised decimal/octal/hex IPv4 spellings to dotted quads.
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port ? Number(url.port) : defaultPort(url.protocol);
  if (isIP(host) !== 0 && isForbiddenAddress(host) && !isAllowed(host, port)) {
    throw new FetchRefusedError("private_address", url.href, `${host} is not a public address`);
  }
  return url;
}

async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  url: string,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new FetchRefusedError("too_large", url, `Response body exceeds ${maxBytes} bytes`, {
        limit: maxBytes,
      });
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/**
 * Fetches a URL for the research engine with an SSRF guard: only http(s), no credentials, no
 * private/loopback/link-local/... address (IP literal, any DNS answer, any redirect hop) unless the
 * host is in allowedHosts, redirects followed manually (max 5), content-type allowlist, and size and
 * time limits. Every failure is a FetchRefusedError with a reason.
 */
export async function safeFetch(url: string, opts: SafeFetchOptions = {}): Promise<FetchedResource> {
  return withSpan("fetch", {}, async (span) => {
    try {
      const fetched = await guardedFetch(url, opts);
      countFetch("ok");
      return fetched;
    } catch (e) {
      const outcome = e instanceof FetchRefusedError ? e.reason : "error";
      span.setAttribute("fetch.outcome", outcome);
      countFetch(outcome);
      throw e;
    }
  });
}

/** Refusals that are the SSRF guard's doing, counted on their own. */
const SSRF_REASONS: ReadonlySet<string> = new Set(["private_address", "scheme", "credentials"]);

function countFetch(outcome: string): void {
  const m = metrics();
  m.fetches.inc({ outcome });
  if (SSRF_REASONS.has(outcome)) m.ssrfRefusals.inc({ reason: outcome });
}

async function guardedFetch(url: string, opts: SafeFetchOptions): Promise<FetchedResource> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const isAllowed = createHostAllowance(opts.allowedHosts ?? []);

  let current = checkUrl(url, isAllowed);
  if (opts.signal?.aborted) throw new FetchRefusedError("aborted", current.href, "Fetch was aborted");

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });
  // One agent per fetch: the allowance and lookup are per call, and nothing is pooled across callers.
  const agent = createGuardedAgent({ isAllowed, lookup: opts.lookup, connectTimeoutMs: timeoutMs });
  const redirects: string[] = [];

  try {
    for (;;) {
      const res = await fetch(current.href, {
        dispatcher: agent,
        redirect: "manual",
        signal: controller.signal,
        headers: { "user-agent": opts.userAgent ?? DEFAULT_USER_AGENT, accept: ACCEPT },
      });

      const location = res.headers.get("location");
      if (REDIRECT_STATUSES.has(res.status) && location) {
        await res.body?.cancel().catch(() => {});
        if (redirects.length >= maxRedirects) {
          throw new FetchRefusedError(
            "too_many_redirects",
            current.href,
            `More than ${maxRedirects} redirects`,
            { limit: maxRedirects },
          );
        }
        let next: string;
        try {
          next = new URL(location, current).href;
        } catch {
          throw new FetchRefusedError("invalid_url", location, `Redirect to an invalid URL: ${location}`);
        }
        redirects.push(current.href);
        current = checkUrl(next, isAllowed);
        continue;
      }

      if (res.status < 200 || res.status > 299) {
        await res.body?.cancel().catch(() => {});
        throw new FetchRefusedError("http_error", current.href, `HTTP ${res.status}`, { status: res.status });
      }

      const { mime, charset } = parseContentType(res.headers.get("content-type"));
      if (!ALLOWED_CONTENT_TYPES.has(mime)) {
        await res.body?.cancel().catch(() => {});
        throw new FetchRefusedError(
          "content_type",
          current.href,
          `Content type ${mime || "(none)"} is not fetched; allowed: ${[...ALLOWED_CONTENT_TYPES].join(", ")}`,
          { contentType: mime },
        );
      }

      const declared = Number(res.headers.get("content-length") ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body?.cancel().catch(() => {});
        throw new FetchRefusedError(
          "too_large",
          current.href,
          `Content-Length ${declared} exceeds ${maxBytes} bytes`,
          { limit: maxBytes },
        );
      }

      const body = await readLimited(res.body as ReadableStream<Uint8Array> | null, maxBytes, current.href);
      return { url: current.href, status: res.status, contentType: mime, charset, body, redirects };
    }
  } catch (e) {
    if (e instanceof FetchRefusedError) throw e;
    if (timedOut) {
      throw new FetchRefusedError("timeout", current.href, `Fetch timed out after ${timeoutMs} ms`, {
        limit: timeoutMs,
        cause: e,
      });
    }
    if (opts.signal?.aborted) {
      throw new FetchRefusedError("aborted", current.href, "Fetch was aborted", { cause: e });
    }
    const refusal = findConnectRefusal(e);
    if (refusal) throw new FetchRefusedError(refusal.reason, current.href, refusal.message, { cause: e });
    const detail = e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e);
    throw new FetchRefusedError("network", current.href, `Network error: ${detail}`, { detail, cause: e });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onOuterAbort);
    agent.destroy().catch(() => {});
  }
}
