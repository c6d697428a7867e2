// The rate limits on both databases: counted per limit and per caller, answered 429 with
// Retry-After past the limit, and shared by every limiter on the same database — as two processes
// (two connection pools on PostgreSQL) would share them.
import { RateLimiterPostgres } from "rate-limiter-flexible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";
import { RATE_LIMIT_TABLE, rateLimitStoreClient } from "../db/rate-limit-store.ts";
import { AppError } from "../lib/errors.ts";
import { errorResponse } from "../lib/http.ts";
import { consumeRateLimit, rateLimitsFromEnv } from "../lib/server/rate-limits.ts";
import { testDatabases } from "./databases.ts";

const env = { RATE_LIMIT_RUNS_PER_MINUTE: "3", RATE_LIMIT_UPLOADS_PER_MINUTE: "2" };

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("rate limits from the environment", () => {
  it("defaults to 10 runs, 30 uploads and 60 run actions a minute, and refuses nonsense by name", () => {
    expect(rateLimitsFromEnv({})).toEqual({ runs: 10, uploads: 30, actions: 60, exports: 10 });
    expect(rateLimitsFromEnv({ RATE_LIMIT_ACTIONS_PER_MINUTE: "0" }).actions).toBe(0);
    expect(() => rateLimitsFromEnv({ RATE_LIMIT_RUNS_PER_MINUTE: "ten" })).toThrow(
      /RATE_LIMIT_RUNS_PER_MINUTE/,
    );
  });
});

for (const database of testDatabases()) {
  describe(`rate limits on ${database.name}`, () => {
    let h: DatabaseHandle;
    beforeAll(async () => {
      h = await database.open();
    }, 60_000);
    afterAll(async () => {
      await h.close();
    });

    it("allows N requests a minute, then answers 429 rate_limited with Retry-After", async () => {
      for (let i = 0; i < 3; i++) await consumeRateLimit(h, "runs", "user:ada", env);
      const e = await refusal(consumeRateLimit(h, "runs", "user:ada", env));
      expect(e.code).toBe("rate_limited");
      const res = errorResponse(e);
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("rate_limited");
      expect(body.error.message).toMatch(/at most 3 runs created a minute/);
    });

    it("counts each caller and each limit on its own", async () => {
      for (let i = 0; i < 3; i++) await consumeRateLimit(h, "runs", "user:bob", env);
      await expect(consumeRateLimit(h, "runs", "user:bob", env)).rejects.toMatchObject({
        code: "rate_limited",
      });
      // Another caller, and another limit of the same caller, are untouched.
      await consumeRateLimit(h, "runs", "user:cyd", env);
      await consumeRateLimit(h, "uploads", "user:bob", env);
      await consumeRateLimit(h, "uploads", "user:bob", env);
      await expect(consumeRateLimit(h, "uploads", "user:bob", env)).rejects.toMatchObject({
        code: "rate_limited",
      });
    });

    it("a limit of 0 is off: nothing is counted or refused", async () => {
      const off = { RATE_LIMIT_ACTIONS_PER_MINUTE: "0" };
      for (let i = 0; i < 20; i++)
        await expect(consumeRateLimit(h, "actions", "user:dee", off)).resolves.toBeUndefined();
      const stored = await rateLimitStoreClient(h).query({
        text: `select points from ${RATE_LIMIT_TABLE} where key = $1`,
        values: ["actions:user:dee"],
      });
      expect(stored.rows).toEqual([]);
    });

    it("shares the count between limiters on the same database, as between processes", async () => {
      // A second client: on PostgreSQL its own connection pool, as another process would have.
      const other = h.kind === "postgres" ? await openDatabase({ url: h.url, poolSize: 2 }) : h;
      const limiter = (handle: DatabaseHandle) =>
        new RateLimiterPostgres({
          storeClient: rateLimitStoreClient(handle),
          storeType: "client",
          tableName: RATE_LIMIT_TABLE,
          tableCreated: true,
          keyPrefix: "shared",
          points: 4,
          duration: 60,
        });
      const a = limiter(h);
      const b = limiter(other);
      try {
        await a.consume("user:eve");
        await b.consume("user:eve");
        await a.consume("user:eve");
        const res = await b.consume("user:eve");
        expect(res.consumedPoints).toBe(4);
        await expect(a.consume("user:eve")).rejects.toMatchObject({ remainingPoints: 0 });
        await expect(b.consume("user:eve")).rejects.toMatchObject({ remainingPoints: 0 });
        const stored = await rateLimitStoreClient(h).query({
          text: `select points, expire from ${RATE_LIMIT_TABLE} where key = $1`,
          values: ["shared:user:eve"],
        });
        expect(stored.rows[0]?.points).toBe(6);
        expect(Number(stored.rows[0]?.expire)).toBeGreaterThan(Date.now());
      } finally {
        if (other !== h) await other.close();
      }
    });
  });
}
