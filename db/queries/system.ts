/**
 * The admin's system page: every account's runs, read from the database so the figures are whole
 * across web and worker processes. Counts, states and accounts only: never a run's question or
 * anything else it holds (an admin operates the instance; they do not read other people's research);
 * a failure's question is read only so that lib/server/system.ts can take it out of the reason.
 */
import { and, desc, eq, gte, inArray, notInArray, sql } from "drizzle-orm";
import type { Because } from "../../lib/research/ui.ts";
import type { Db } from "../client.ts";
import { type RunPhase, type RunStatus, runs, terminalRunStatuses, users } from "../schema.ts";
import { resultRows } from "./usage.ts";

export interface SystemRunRow {
  id: string;
  ownerEmail: string | null;
  status: RunStatus;
  phase: RunPhase | null;
  createdAt: Date;
  startedAt: Date | null;
  /** Waiting for a slot of its owner (queued without a job). */
  waiting: boolean;
}

/** Runs that have not ended, oldest first. */
export async function listUnfinishedRuns(db: Db, limit = 200): Promise<SystemRunRow[]> {
  return db
    .select({
      id: runs.id,
      ownerEmail: users.email,
      status: runs.status,
      phase: runs.phase,
      createdAt: runs.createdAt,
      startedAt: runs.startedAt,
      waiting: sql<boolean>`${runs.status} = 'queued' and ${runs.jobId} is null`,
    })
    .from(runs)
    .leftJoin(users, eq(users.id, runs.ownerId))
    .where(notInArray(runs.status, [...terminalRunStatuses]))
    .orderBy(runs.createdAt)
    .limit(limit);
}

export interface FailureRow {
  id: string;
  ownerEmail: string | null;
  /** Only to take it out of the reason (lib/server/system.ts); never shown. */
  question: string;
  phase: RunPhase | null;
  error: string | null;
  errorBecause: Because | null;
  finishedAt: Date | null;
}

/** The latest failed runs with their reasons (runs.error), newest first. */
export async function listRecentFailures(db: Db, limit = 20): Promise<FailureRow[]> {
  return db
    .select({
      id: runs.id,
      ownerEmail: users.email,
      question: runs.question,
      phase: runs.phase,
      error: runs.error,
      errorBecause: runs.errorBecause,
      finishedAt: runs.finishedAt,
    })
    .from(runs)
    .leftJoin(users, eq(users.id, runs.ownerId))
    .where(eq(runs.status, "failed"))
    .orderBy(desc(sql`coalesce(${runs.finishedAt}, ${runs.updatedAt})`))
    .limit(limit);
}

/** Runs created since `since` that ended, by how they ended. */
export async function countEndedRuns(db: Db, since: Date): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: runs.status, n: sql<number>`count(*)::int` })
    .from(runs)
    .where(and(gte(runs.createdAt, since), inArray(runs.status, [...terminalRunStatuses])))
    .groupBy(runs.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export interface RoleErrorRow {
  role: string;
  calls: number;
  retries: number;
  /** Retries answered with an HTTP status (rate limits, server errors) vs. network failures. */
  byStatus: Record<string, number>;
}

/**
 * Per model role since `since`: calls that succeeded (runs.usage.byRole) and retried calls
 * (`model.retry` run events: each is a failed attempt that was tried again).
 */
export async function modelErrorsByRole(db: Db, since: Date): Promise<RoleErrorRow[]> {
  const sinceSql = sql`${since.toISOString()}::timestamptz`;
  const [calls, retries] = await Promise.all([
    db.execute(sql`
      select b.key as role, sum(coalesce((b.value->>'calls')::float8, 0)) as calls
      from runs r
      cross join lateral jsonb_each(
        case when jsonb_typeof(r.usage->'byRole') = 'object' then r.usage->'byRole' else '{}'::jsonb end
      ) as b(key, value)
      where r.created_at >= ${sinceSql}
      group by b.key`),
    db.execute(sql`
      select e.payload->>'role' as role, coalesce(e.payload->>'status', 'network') as status, count(*) as n
      from run_events e
      where e.type = 'model.retry' and e.created_at >= ${sinceSql}
      group by 1, 2`),
  ]);
  const byRole = new Map<string, RoleErrorRow>();
  const row = (role: string) => {
    const found = byRole.get(role);
    if (found) return found;
    const created: RoleErrorRow = { role, calls: 0, retries: 0, byStatus: {} };
    byRole.set(role, created);
    return created;
  };
  for (const c of resultRows(calls)) row(String(c.role)).calls = Number(c.calls ?? 0);
  for (const e of resultRows(retries)) {
    const r = row(String(e.role ?? "unknown"));
    const n = Number(e.n ?? 0);
    r.retries += n;
    r.byStatus[String(e.status)] = (r.byStatus[String(e.status)] ?? 0) + n;
  }
  return [...byRole.values()].sort((a, b) => b.retries - a.retries || a.role.localeCompare(b.role));
}
