/**
 * DNS rebinding defence. A hostile page can make its own hostname resolve to this server's address
 * (localhost, a LAN IP) and then talk to the app from the visitor's browser as its own origin, so
 * Origin checks pass. It cannot choose the Host header, though: the browser sends the attacker's
 * hostname. Sign-up, sign-in and cookie-authenticated writes therefore accept only a Host that is an
 * IP address, `localhost`, APP_URL's host or one listed in ALLOWED_HOSTS.
 */
import { isIP } from "node:net";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { configuredOrigin, trustProxy } from "./settings.ts";

/** The hostname of a Host header value (`name:port`, `[v6]:port`), lower-cased, without the port. */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(1, value.indexOf("]") > 0 ? value.indexOf("]") : undefined);
  const colon = value.lastIndexOf(":");
  return (colon > 0 && value.indexOf(":") === colon ? value.slice(0, colon) : value).replace(/\.$/, "");
}

/** ALLOWED_HOSTS: a comma list of hostnames (a port, if given, is ignored). */
export function allowedHostsFromEnv(env: Env = process.env): string[] {
  return (env.ALLOWED_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean)
    .map(hostnameOf);
}

export function isAllowedHostname(hostname: string, env: Env = process.env): boolean {
  if (!hostname) return false;
  if (isIP(hostname) !== 0 || hostname === "localhost") return true;
  const appUrl = configuredOrigin(env);
  if (appUrl && new URL(appUrl).hostname.toLowerCase().replace(/^\[|\]$/g, "") === hostname) return true;
  return allowedHostsFromEnv(env).includes(hostname);
}

/**
 * The hostnames a request claims: its Host header (or, without one, its URL's host) and, behind a
 * trusted proxy, X-Forwarded-Host too — each must be allowed, since a page can set the latter itself.
 */
export function requestHostnames(headers: Headers, url?: string, env: Env = process.env): string[] {
  // A browser always sends Host; with neither it nor a URL there is no name to judge.
  const host = headers.get("host") ?? (url ? new URL(url).host : null);
  const names = host === null ? [] : [hostnameOf(host)];
  const forwarded = trustProxy(env) ? headers.get("x-forwarded-host") : null;
  if (forwarded) names.push(...forwarded.split(",").map(hostnameOf));
  return names;
}

/** The first hostname of the request that this server does not answer sign-in and changes for, if any. */
export function refusedHostname(headers: Headers, url?: string, env: Env = process.env): string | null {
  return requestHostnames(headers, url, env).find((name) => !isAllowedHostname(name, env)) ?? null;
}

/** The sentence a refused Host gets, on a page and in a JSON error alike. */
export function refusedHostMessage(hostname: string): string {
  return (
    `This server was reached as "${hostname}", which is not one of its known addresses, so sign-up, sign-in and ` +
    `changes are refused here (a defence against DNS rebinding). If "${hostname}" is this server's real address, ` +
    `add it to ALLOWED_HOSTS (ALLOWED_HOSTS=${hostname}) or set APP_URL to it, and restart the app.`
  );
}

export function assertAllowedHost(headers: Headers, url?: string, env: Env = process.env): void {
  const refused = refusedHostname(headers, url, env);
  if (refused !== null) {
    throw new AppError("forbidden", refusedHostMessage(refused), {
      details: { host: refused, variable: "ALLOWED_HOSTS" },
    });
  }
}
