/**
 * One webhook POST through the SSRF guard of lib/fetch: the URL's scheme and an IP-literal host
 * are checked before connecting, and every DNS answer at connect time (createGuardedAgent), so a
 * private, loopback or link-local receiver is refused unless WEBHOOK_ALLOWED_HOSTS names it (not
 * FETCH_ALLOWED_HOSTS: an intranet host opened for research reading is not open to users' POSTs).
 * Redirects are not followed at all: a webhook answers where it was sent, or it was not delivered.
 */
import { isIP } from "node:net";
import { fetch } from "undici";
import { createHostAllowance, defaultPort } from "../../fetch/allowed-hosts.ts";
import { findConnectRefusal } from "../../fetch/errors.ts";
import { createGuardedAgent } from "../../fetch/guarded-agent.ts";
import { isForbiddenAddress } from "../../fetch/ip.ts";

export const WEBHOOK_TIMEOUT_MS = 10_000;

export type PostResult =
  | { kind: "answered"; status: number }
  /** Refused before any request left: the address is private, or the URL is not http(s). */
  | { kind: "refused"; message: string }
  /** No answer: DNS, connection, or the time limit. Worth another attempt. */
  | { kind: "unreachable"; message: string };

export interface PostOptions {
  allowedHosts: readonly string[];
  timeoutMs?: number;
}

export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: PostOptions,
): Promise<PostResult> {
  const isAllowed = createHostAllowance(opts.allowedHosts);
  const target = checkTarget(url, isAllowed);
  if (typeof target === "string") return { kind: "refused", message: target };
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const agent = createGuardedAgent({ isAllowed, connectTimeoutMs: timeoutMs });
  try {
    const res = await fetch(target.href, {
      method: "POST",
      dispatcher: agent,
      redirect: "manual",
      body,
      headers: { "content-type": "application/json", "user-agent": "DeepResearch-Webhook/1", ...headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => {});
    return { kind: "answered", status: res.status };
  } catch (e) {
    const refusal = findConnectRefusal(e);
    if (refusal?.reason === "private_address") {
      return { kind: "refused", message: `${refusal.message}; add it to WEBHOOK_ALLOWED_HOSTS to allow it` };
    }
    return { kind: "unreachable", message: failureText(e, timeoutMs) };
  } finally {
    agent.destroy().catch(() => {});
  }
}

/** The URL, or why it is refused without sending anything. */
function checkTarget(raw: string, isAllowed: (host: string, port: number) => boolean): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `Not a valid URL: ${raw}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Only http and https URLs are posted to";
  if (url.username || url.password) return "URLs with embedded credentials are not posted to";
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port ? Number(url.port) : defaultPort(url.protocol);
  if (isIP(host) !== 0 && isForbiddenAddress(host) && !isAllowed(host, port)) {
    return `${host} is not a public address; add it to WEBHOOK_ALLOWED_HOSTS to allow it`;
  }
  return url;
}

function failureText(e: unknown, timeoutMs: number): string {
  if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) {
    return `No answer within ${timeoutMs / 1000} s`;
  }
  const refusal = findConnectRefusal(e);
  if (refusal) return refusal.message;
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e);
  return `Network error: ${cause}`;
}
