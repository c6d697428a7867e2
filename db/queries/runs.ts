import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type NewRun, type Run, type RunStatus, runs, terminalRunStatuses } from "../schema.ts";

export async function createRun(
  db: Db,
  input: Pick<NewRun, "ownerId" | "question" | "settings">,
): Promise<Run> {
  const [row] = await db.insert(runs).values(input).returning();
  return row;
}

/** A run as its owner sees it; another owner's run is indistinguishable from a missing one. */
export async function getRunForOwner(db: Db, id: string, ownerId: string): Promise<Run | undefined> {
  const [row] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.id, id), eq(runs.ownerId, ownerId)));
  return row;
}

export async function getRun(db: Db, id: string): Promise<Run | undefined> {
  const [row] = await db.select().from(runs).where(eq(runs.id, id));
  return row;
}

export async function listRunsForOwner(db: Db, ownerId: string, limit = 100): Promise<Run[]> {
  return db.select().from(runs).where(eq(runs.ownerId, ownerId)).orderBy(desc(runs.createdAt)).limit(limit);
}

export async function updateRunStatus(
  db: Db,
  id: string,
  patch: Partial<Pick<Run, "status" | "phase" | "brief" | "error" | "usage">>,
): Promise<Run | undefined> {
  const finished =
    patch.status && terminalRunStatuses.includes(patch.status as RunStatus) ? { finishedAt: new Date() } : {};
  const [row] = await db
    .update(runs)
    .set({ ...patch, ...finished, updatedAt: sql`now()` })
    .where(eq(runs.id, id))
    .returning();
  return row;
}
