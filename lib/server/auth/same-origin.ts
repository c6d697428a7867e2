/**
 * Cross-site request forgery defence for cookie-authenticated writes: the browser must say the
 * request comes from our own origin (Origin, or Sec-Fetch-Site when Origin is absent), through a
 * Host this server answers for (hosts.ts: DNS rebinding), and the body must be JSON (or a multipart
 * upload where a file is expected) — the content types a cross-site HTML form or a no-preflight
 * fetch cannot send with JSON's media type. Otherwise 403, before any change.
 */
import { AppError } from "../../errors.ts";
import { assertAllowedHost } from "./hosts.ts";
import { configuredOrigin, requestOrigin } from "./settings.ts";

export type WriteBody = "json" | "json-or-multipart";

type Env = Record<string, string | undefined>;

export function assertSafeWrite(req: Request, body: WriteBody, env: Env = process.env): void {
  assertSameOrigin(req, env);
  assertBody(req, body);
}

/** Our own pages, through an allowed Host: what a cookie-authenticated action must come from. */
export function assertSameOrigin(req: Request, env: Env = process.env): void {
  assertAllowedHost(req.headers, req.url, env);
  if (!isSameOrigin(req, env)) {
    throw new AppError(
      "forbidden",
      "Cross-site request refused: state changes must come from this app's own pages.",
    );
  }
}

/** The body's media type alone: what token-authenticated writes are checked for. */
export function assertBody(req: Request, body: WriteBody): void {
  if (!hasAcceptedBody(req, body)) {
    const accepted = body === "json" ? "application/json" : "application/json or multipart/form-data";
    throw new AppError("forbidden", `Request refused: the body must be sent as ${accepted}.`);
  }
}

export function isSameOrigin(req: Request, env: Env = process.env): boolean {
  const origin = req.headers.get("origin");
  if (origin) return [configuredOrigin(env), requestOrigin(req, env)].includes(origin);
  const site = req.headers.get("sec-fetch-site");
  // No Origin and no Fetch Metadata: not a browser, so no ambient cookies to forge with.
  return site === null || site === "same-origin" || site === "none";
}

function hasAcceptedBody(req: Request, body: WriteBody): boolean {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!type) return !carriesBody(req);
  if (type === "application/json") return true;
  return body === "json-or-multipart" && type === "multipart/form-data";
}

/** A body-less POST (cancel, finish, share) is fine without a content type; a body needs one. */
function carriesBody(req: Request): boolean {
  const length = req.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return req.headers.has("transfer-encoding");
}
