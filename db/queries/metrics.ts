/**
 * Whole-across-processes figures for /api/metrics, read at scrape time: runs by status, their
 * failures, their total cost, and the run queue's jobs by state.
 */
import { count, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { runs } from "../schema.ts";

export async function countRunsByStatus(db: Db): Promise<{ status: string; count: number }[]> {
  const rows = await db.select({ status: runs.status, count: count() }).from(runs).groupBy(runs.status);
  return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
}

/** The sum of every run's recorded cost (the usage meter's snapshot on the run row). */
export async function totalRunCostUsd(db: Db): Promise<number> {
  const [row] = await db
    .select({
      cost: sql<number>`coalesce(sum(coalesce(("usage"->'total'->>'costUsd')::float8, 0)), 0)`.mapWith(
        Number,
      ),
    })
    .from(runs);
  return row?.cost ?? 0;
}

/** pg-boss's jobs of one queue by state; empty before pg-boss has created its schema. */
export async function countQueueJobsByState(
  db: Db,
  queue: string,
): Promise<{ state: string; count: number }[]> {
  const exists = rowsOf(await db.execute(sql`select to_regclass('pgboss.job') is not null as present`));
  if (exists[0]?.present !== true) return [];
  const result = await db.execute(
    sql`select state::text as state, count(*)::int as count from pgboss.job where name = ${queue} group by state`,
  );
  return rowsOf(result).map((r) => ({ state: String(r.state), count: Number(r.count) }));
}

/** The rows of a raw `execute`: postgres.js answers an array, PGlite an object with `rows`. */
function rowsOf(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as Record<
    string,
    unknown
  >[];
}
