/** Per-person limits (user_limits) and the two figures they are checked against. */
import { and, count, eq, gte, notInArray, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { runs, terminalRunStatuses, type UserLimit, userLimits } from "../schema.ts";

export async function getUserLimits(db: Db, userId: string): Promise<UserLimit | undefined> {
  const [row] = await db.select().from(userLimits).where(eq(userLimits.userId, userId));
  return row;
}

export async function listUserLimits(db: Db): Promise<UserLimit[]> {
  return db.select().from(userLimits);
}

export async function saveUserLimits(
  db: Db,
  userId: string,
  limits: { maxConcurrentRuns: number | null; monthlyCostLimitUsd: number | null },
): Promise<UserLimit> {
  const [row] = await db
    .insert(userLimits)
    .values({ userId, ...limits })
    .onConflictDoUpdate({ target: userLimits.userId, set: { ...limits, updatedAt: sql`now()` } })
    .returning();
  return row;
}

/** The owner's runs that have not ended: running, waiting in the queue, or waiting for them. */
export async function countUnfinishedRuns(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(runs)
    .where(and(eq(runs.ownerId, ownerId), notInArray(runs.status, [...terminalRunStatuses])));
  return row?.n ?? 0;
}

/** What the owner's runs created since `since` cost, in USD (runs.usage.total.costUsd). */
export async function costSince(db: Db, ownerId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({
      usd: sql<string | null>`sum(coalesce((${runs.usage}->'total'->>'costUsd')::float8, 0))`,
    })
    .from(runs)
    .where(and(eq(runs.ownerId, ownerId), gte(runs.createdAt, since)));
  return Number(row?.usd ?? 0);
}
