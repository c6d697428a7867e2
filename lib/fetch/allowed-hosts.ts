/**
 * FETCH_ALLOWED_HOSTS: hosts that may be fetched even though they resolve to private or loopback
 * addresses (intranets, tests). An entry is `host` (any port) or `host:port`; IPv6 as `[::1]:8080`.
 * WEBHOOK_ALLOWED_HOSTS is the same for webhook receivers, kept apart: a host opened for reading is
 * not thereby open to every user's POSTs.
 */

interface HostEntry {
  /** Hostname as the WHATWG URL parser normalises it, without IPv6 brackets. */
  host: string;
  /** Port number, or undefined for "any port". */
  port?: number;
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Normalises a hostname the way `new URL()` does, so `LOCALHOST`, `0x7f.0.0.1` etc. compare equal. */
function normaliseHostname(host: string): string | null {
  try {
    const url = new URL(`http://${host}/`);
    return url.pathname === "/" && url.port === "" ? stripBrackets(url.hostname) : null;
  } catch {
    return null;
  }
}

function parseEntry(raw: string): HostEntry | null {
  const m = /^(\[[^\]]+\]|[^:[\]/@?#]+)(?::(\d{1,5}))?$/.exec(raw.trim());
  if (!m) return null;
  const host = normaliseHostname(m[1]!);
  if (host === null) return null;
  if (m[2] === undefined) return { host };
  const port = Number(m[2]);
  return port > 0 && port <= 65535 ? { host, port } : null;
}

function formatEntry(e: HostEntry): string {
  const host = e.host.includes(":") ? `[${e.host}]` : e.host;
  return e.port === undefined ? host : `${host}:${e.port}`;
}

export type AllowedHostsVariable = "FETCH_ALLOWED_HOSTS" | "WEBHOOK_ALLOWED_HOSTS";

/**
 * Reads FETCH_ALLOWED_HOSTS (or `variable`; comma-separated) from the given environment and returns
 * normalised entries. Throws on an entry that is not `host` or `host:port`, naming it, so a typo in
 * the configuration is noticed instead of silently widening or narrowing the guard.
 */
export function parseAllowedHosts(
  env: Record<string, string | undefined> = process.env,
  variable: AllowedHostsVariable = "FETCH_ALLOWED_HOSTS",
): string[] {
  const raw = env[variable] ?? "";
  const out: string[] = [];
  for (const item of raw.split(",")) {
    if (item.trim() === "") continue;
    const entry = parseEntry(item);
    if (!entry) {
      throw new Error(
        `${variable}: "${item.trim()}" is not a host or host:port (examples: intranet.local, 10.0.0.5:8080, [::1]:3000)`,
      );
    }
    out.push(formatEntry(entry));
  }
  return out;
}

/** Builds the "is this host:port allowed to be private?" check for one fetch. Throws on invalid entries. */
export function createHostAllowance(
  allowedHosts: readonly string[],
): (hostname: string, port: number) => boolean {
  const entries = allowedHosts.map((raw) => {
    const entry = parseEntry(raw);
    if (!entry) throw new Error(`allowedHosts: "${raw}" is not a host or host:port`);
    return entry;
  });
  if (entries.length === 0) return () => false;
  return (hostname, port) => {
    const host = normaliseHostname(
      hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname,
    );
    if (host === null) return false;
    return entries.some((e) => e.host === host && (e.port === undefined || e.port === port));
  };
}

export function defaultPort(protocol: string): number {
  return protocol === "https:" ? 443 : 80;
}
