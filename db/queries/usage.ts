/**
 * What runs used and cost, summed in the database from runs.usage (lib/ai/usage.ts UsageSnapshot).
 * A run counts on the day (UTC) it was created. `ownerId` undefined sums every account (admins).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../client.ts";

export interface UsageTotalsRow {
  calls: number;
  tokens: number;
  costUsd: number;
}
export interface DayUsageRow extends UsageTotalsRow {
  /** YYYY-MM-DD (UTC). */
  day: string;
  runs: number;
}
export interface RoleUsageRow extends UsageTotalsRow {
  role: string;
}

/** The rows of a raw `execute`: postgres.js answers an array, PGlite an object with `rows`. */
export function resultRows(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as Record<
    string,
    unknown
  >[];
}

function runsSince(ownerId: string | undefined, since: Date): SQL {
  const owner = ownerId === undefined ? sql`true` : sql`r.owner_id = ${ownerId}`;
  return sql`${owner} and r.created_at >= ${since.toISOString()}::timestamptz`;
}

const num = (v: unknown) => Number(v ?? 0);

/** Per day since `since`: runs created, model calls, tokens and cost. Days without runs are absent. */
export async function usageByDay(db: Db, ownerId: string | undefined, since: Date): Promise<DayUsageRow[]> {
  const result = await db.execute(sql`
    select to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
           count(*) as runs,
           sum(coalesce((r.usage->'total'->>'calls')::float8, 0)) as calls,
           sum(coalesce((r.usage->'total'->>'totalTokens')::float8, 0)) as tokens,
           sum(coalesce((r.usage->'total'->>'costUsd')::float8, 0)) as cost
    from runs r
    where ${runsSince(ownerId, since)}
    group by 1 order by 1`);
  return resultRows(result).map((r) => ({
    day: String(r.day),
    runs: num(r.runs),
    calls: num(r.calls),
    tokens: num(r.tokens),
    costUsd: num(r.cost),
  }));
}

/** Per model role since `since` (runs.usage.byRole), most expensive first. */
export async function usageByRole(db: Db, ownerId: string | undefined, since: Date): Promise<RoleUsageRow[]> {
  const result = await db.execute(sql`
    select b.key as role,
           sum(coalesce((b.value->>'calls')::float8, 0)) as calls,
           sum(coalesce((b.value->>'totalTokens')::float8, 0)) as tokens,
           sum(coalesce((b.value->>'costUsd')::float8, 0)) as cost
    from runs r
    cross join lateral jsonb_each(
      case when jsonb_typeof(r.usage->'byRole') = 'object' then r.usage->'byRole' else '{}'::jsonb end
    ) as b(key, value)
    where ${runsSince(ownerId, since)}
    group by b.key order by cost desc, b.key`);
  return resultRows(result).map((r) => ({
    role: String(r.role),
    calls: num(r.calls),
    tokens: num(r.tokens),
    costUsd: num(r.cost),
  }));
}
