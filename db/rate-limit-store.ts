/**
 * The database as rate-limiter-flexible's PostgreSQL store client. Its RateLimiterPostgres calls
 * `client.query({text, values})` and reads `{rows, rowCount}` the way node-postgres answers; this
 * adapter answers that over our own handle — postgres.js (`unsafe`) or PGlite (`query`) — so the
 * limiter's counters live in the app's database, in the `rate_limits` table the migrations create.
 */
import type { DatabaseHandle } from "./client.ts";

/** The table of db/schema.ts `rateLimits`; the limiter is told it exists (no DDL at run time). */
export const RATE_LIMIT_TABLE = "rate_limits";

export interface PgLikeResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

export interface PgLikeClient {
  query(q: { text: string; values?: unknown[]; name?: string }): Promise<PgLikeResult>;
}

export function rateLimitStoreClient(handle: DatabaseHandle): PgLikeClient {
  return {
    async query({ text, values = [] }) {
      if (handle.kind === "pglite") {
        const r = await handle.client.query<Record<string, unknown>>(text, values);
        return { rows: r.rows.map(withNumericExpire), rowCount: r.affectedRows || r.rows.length };
      }
      const r = await handle.client.unsafe<Record<string, unknown>[]>(text, values as never[]);
      return { rows: [...r].map(withNumericExpire), rowCount: r.count };
    },
  };
}

/** `expire` is a bigint column; postgres.js hands int8 back as a string, the limiter does arithmetic on it. */
function withNumericExpire(row: Record<string, unknown>): Record<string, unknown> {
  return row.expire === null || row.expire === undefined ? row : { ...row, expire: Number(row.expire) };
}
