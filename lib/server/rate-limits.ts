/**
 * Rate limits on the requests that spend the operator's model keys or the server's CPU: creating
 * runs, adding library documents, acting on runs (steering, answering, approving, cancelling), and
 * exporting an account (per hour: an export reads everything the person owns).
 * The counters live in the app's own database (rate_limits), so every web process sharing the
 * database shares the limits. Callers are counted by user id, or by client address when nobody is
 * signed in. Past a limit the request is answered 429 `rate_limited` with Retry-After.
 */
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { DatabaseHandle } from "../../db/client.ts";
import { RATE_LIMIT_TABLE, rateLimitStoreClient } from "../../db/rate-limit-store.ts";
import { type Env, envNumber } from "../env.ts";
import { AppError } from "../errors.ts";
import type { Runtime } from "../jobs/runtime.ts";
import { callerFromHeaders } from "./auth/caller.ts";
import { clientAddress } from "./client-address.ts";

export const rateLimitNames = ["runs", "uploads", "actions", "exports"] as const;
export type RateLimitName = (typeof rateLimitNames)[number];

const MINUTE = { seconds: 60, words: "a minute" };
const HOUR = { seconds: 3600, words: "an hour" };

const variables: Record<
  RateLimitName,
  { name: string; fallback: number; what: string; window: { seconds: number; words: string } }
> = {
  runs: { name: "RATE_LIMIT_RUNS_PER_MINUTE", fallback: 10, what: "runs created", window: MINUTE },
  uploads: {
    name: "RATE_LIMIT_UPLOADS_PER_MINUTE",
    fallback: 30,
    what: "library documents added",
    window: MINUTE,
  },
  actions: {
    name: "RATE_LIMIT_ACTIONS_PER_MINUTE",
    fallback: 60,
    what: "run actions (steer, answer, cancel)",
    window: MINUTE,
  },
  exports: { name: "RATE_LIMIT_EXPORTS_PER_HOUR", fallback: 10, what: "account exports", window: HOUR },
};

/** Requests allowed per window (a minute; an hour for exports) for each limit; 0 turns it off. */
export function rateLimitsFromEnv(env: Env = process.env): Record<RateLimitName, number> {
  const limit = (n: RateLimitName) =>
    envNumber(env, variables[n].name, variables[n].fallback, { min: 0, integer: true });
  return {
    runs: limit("runs"),
    uploads: limit("uploads"),
    actions: limit("actions"),
    exports: limit("exports"),
  };
}

/** The key a signed-in person's requests are counted under, whichever way they come (API, page, MCP). */
export const userRateLimitKey = (userId: string) => `user:${userId}`;

/** Whom a request is counted against: the signed-in user, else the client address (client-address.ts). */
export async function rateLimitKey(req: Request, _env: Env = process.env): Promise<string> {
  const caller = await callerFromHeaders(req.headers);
  if (caller) return userRateLimitKey(caller.userId);
  const address = clientAddress(req.headers);
  return address ? `ip:${address}` : "anonymous";
}

// One limiter per database handle and limit setting; the counters themselves are in the database.
const limiters = new WeakMap<DatabaseHandle, Map<string, RateLimiterPostgres>>();

export function rateLimiter(
  handle: DatabaseHandle,
  name: RateLimitName,
  points: number,
): RateLimiterPostgres {
  let byName = limiters.get(handle);
  if (!byName) {
    byName = new Map();
    limiters.set(handle, byName);
  }
  const id = `${name}:${points}`;
  let limiter = byName.get(id);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: rateLimitStoreClient(handle),
      storeType: "client",
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      keyPrefix: name,
      points,
      duration: variables[name].window.seconds,
    });
    byName.set(id, limiter);
  }
  return limiter;
}

/** Counts one request against the caller's `name` limit; throws 429 with Retry-After past it. */
export async function enforceRateLimit(
  rt: Pick<Runtime, "handle">,
  req: Request,
  name: RateLimitName,
  env: Env = process.env,
): Promise<void> {
  if (rateLimitsFromEnv(env)[name] === 0) return;
  await consumeRateLimit(rt.handle, name, await rateLimitKey(req, env), env);
}

/** Counts one request of `key` against the `name` limit; throws 429 with Retry-After past it. */
export async function consumeRateLimit(
  handle: DatabaseHandle,
  name: RateLimitName,
  key: string,
  env: Env = process.env,
): Promise<void> {
  const points = rateLimitsFromEnv(env)[name];
  if (points === 0) return;
  try {
    await rateLimiter(handle, name, points).consume(key);
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    const seconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    const { what, window } = variables[name];
    const per = window === MINUTE ? { perMinute: points } : { perHour: points };
    throw new AppError(
      "rate_limited",
      `Too many requests: at most ${points} ${what} ${window.words}. Try again in ${seconds} s.`,
      {
        headers: { "retry-after": String(seconds) },
        details: { limit: name, ...per, retryAfterSeconds: seconds },
      },
    );
  }
}
