/**
 * Account settings read from the environment: who may sign up, the public origin, whether a proxy's
 * headers are trusted, and the session secret (generated into DATA_DIR when embedded).
 */
import { z } from "zod";
import { type Env, envFlag } from "../../env.ts";
import { AppError } from "../../errors.ts";

export const signupModes = ["invite", "open", "closed"] as const;
export type SignupMode = (typeof signupModes)[number];

export function signupMode(env: Env = process.env): SignupMode {
  const parsed = z.enum(signupModes).safeParse((env.SIGNUP ?? "invite").trim().toLowerCase());
  if (!parsed.success) {
    throw new AppError(
      "not_configured",
      `SIGNUP must be one of ${signupModes.join(", ")} (got "${env.SIGNUP}").`,
    );
  }
  return parsed.data;
}

export function trustProxy(env: Env = process.env): boolean {
  return envFlag(env, "TRUST_PROXY", false);
}

/** The public origin from APP_URL, or null when unset (then each request's own origin is used). */
export function configuredOrigin(env: Env = process.env): string | null {
  const raw = env.APP_URL?.trim();
  if (!raw) return null;
  try {
    return new URL(raw).origin;
  } catch {
    throw new AppError(
      "not_configured",
      `APP_URL is not a URL: "${raw}". Example: APP_URL=https://research.example.org`,
    );
  }
}

/**
 * The origin the browser used to reach this server: the Host header it sent (X-Forwarded-Host and
 * X-Forwarded-Proto when TRUST_PROXY says a proxy sets them). Not req.url's origin: `next start`
 * rebuilds that URL as localhost, so a browser on 127.0.0.1, a LAN address or a domain never matched it.
 */
export function requestOrigin(req: Request, env: Env = process.env): string {
  const url = new URL(req.url);
  const proxied = trustProxy(env);
  const forwarded = (name: string) => (proxied ? firstValue(req.headers.get(name)) : undefined);
  const host = forwarded("x-forwarded-host") || req.headers.get("host") || url.host;
  const proto = forwarded("x-forwarded-proto") || url.protocol.slice(0, -1);
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return url.origin;
  }
}

/** A proxy may append to a forwarded header ("a, b"): the first value is the client-facing one. */
const firstValue = (raw: string | null) => raw?.split(",")[0]?.trim() || undefined;

/** The origin links (share pages, invitations) are built with. */
export function publicOrigin(req: Request, env: Env = process.env): string {
  return configuredOrigin(env) ?? requestOrigin(req, env);
}

// AUTH_SECRET is resolved in lib/secrets.ts, beside the encryption derived from it (the worker needs both).
export { resolveAuthSecret } from "../../secrets.ts";
