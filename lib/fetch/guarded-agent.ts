import { lookup as dnsLookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector } from "undici";
import { defaultPort } from "./allowed-hosts.ts";
import { ConnectRefusal } from "./errors.ts";
import { isForbiddenAddress } from "./ip.ts";

export interface GuardedAgentOptions {
  /** Whether host:port may resolve to private addresses (FETCH_ALLOWED_HOSTS). */
  isAllowed: (hostname: string, port: number) => boolean;
  /** DNS lookup to use; tests inject one. Defaults to `dns.lookup`. */
  lookup?: LookupFunction;
  /** Connect timeout; the caller's overall timeout aborts sooner anyway. */
  connectTimeoutMs: number;
}

/**
 * Wraps a lookup so that EVERY address of the answer is checked, and the socket connects only to
 * the addresses that were checked: validation and connection use the same answer, so a DNS
 * rebinding between "check" and "connect" is not possible.
 */
export function guardLookup(base: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, result, family) => {
      if (err) {
        callback(new ConnectRefusal("dns_failed", hostname, `DNS lookup failed for ${hostname}`, err), "");
        return;
      }
      const answers = Array.isArray(result) ? result : [{ address: result, family: family ?? isIP(result) }];
      if (answers.length === 0) {
        callback(
          new ConnectRefusal("dns_failed", hostname, `DNS lookup returned no address for ${hostname}`),
          "",
        );
        return;
      }
      const bad = answers.find((a) => isForbiddenAddress(a.address));
      if (bad) {
        const message = `${hostname} resolves to ${bad.address}, which is not a public address`;
        callback(new ConnectRefusal("private_address", hostname, message), "");
        return;
      }
      if (options.all) callback(null, answers);
      else callback(null, answers[0]!.address, answers[0]!.family);
    });
  };
}

/**
 * An undici Agent whose every connection goes through the SSRF guard. IP-literal hosts never reach
 * a DNS lookup in Node, so they are checked here too, right before connecting.
 */
export function createGuardedAgent(opts: GuardedAgentOptions): Agent {
  const baseLookup = opts.lookup ?? (dnsLookup as LookupFunction);
  const strict = buildConnector({ lookup: guardLookup(baseLookup), timeout: opts.connectTimeoutMs });
  const permissive = buildConnector({ lookup: baseLookup, timeout: opts.connectTimeoutMs });
  return new Agent({
    connect: (connectOpts, callback) => {
      const { hostname, protocol } = connectOpts;
      const port = connectOpts.port ? Number(connectOpts.port) : defaultPort(protocol);
      if (opts.isAllowed(hostname, port)) return permissive(connectOpts, callback);
      if (isIP(hostname) !== 0 && isForbiddenAddress(hostname)) {
        callback(
          new ConnectRefusal("private_address", hostname, `${hostname} is not a public address`),
          null,
        );
        return;
      }
      return strict(connectOpts, callback);
    },
  });
}
