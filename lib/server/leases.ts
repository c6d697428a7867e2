/**
 * A lease held while some work goes on (db/queries/leases.ts): taken once, renewed every third of
 * its time to live while held, given back when the work ends. A process that dies holds it at most
 * `ttlMs` longer.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { releaseLease, renewLease, takeLease } from "../../db/queries/leases.ts";
import { log } from "../telemetry/log.ts";

export interface HeldLease {
  /** Gives the lease back; later calls do nothing. */
  release(): Promise<void>;
}

/** Takes `key`, or answers null while someone else holds it. */
export async function holdLease(db: Db, key: string, ttlMs: number): Promise<HeldLease | null> {
  const holder = randomUUID();
  if (!(await takeLease(db, key, holder, ttlMs))) return null;
  const renewal = setInterval(() => {
    renewLease(db, key, holder, ttlMs).catch((err: unknown) =>
      log("server").warn({ err, key }, "a lease could not be renewed"),
    );
  }, ttlMs / 3);
  renewal.unref();
  let released: Promise<void> | null = null;
  return {
    release() {
      clearInterval(renewal);
      released ??= releaseLease(db, key, holder).catch((err: unknown) =>
        log("server").warn({ err, key }, "a lease could not be released; it expires by itself"),
      );
      return released;
    },
  };
}
