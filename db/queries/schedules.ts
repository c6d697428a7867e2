/** Scheduled refreshes as the pages show them (the schedule itself is pg-boss's; see lib/jobs/schedules). */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type PausedError, type RunSchedule, runSchedules, runs, type ScheduleInterval } from "../schema.ts";

export async function getSchedule(db: Db, reportId: string): Promise<RunSchedule | undefined> {
  const [row] = await db.select().from(runSchedules).where(eq(runSchedules.reportId, reportId));
  return row;
}

/** Sets (or replaces) the report's schedule; a new interval also lifts a pause. */
export async function upsertSchedule(
  db: Db,
  values: {
    reportId: string;
    ownerId: string;
    every: ScheduleInterval;
    cron: string;
    nextRunAt: Date | null;
  },
): Promise<RunSchedule> {
  const now = new Date();
  const [row] = await db
    .insert(runSchedules)
    .values({ ...values, updatedAt: now })
    .onConflictDoUpdate({
      target: runSchedules.reportId,
      set: {
        every: values.every,
        cron: values.cron,
        nextRunAt: values.nextRunAt,
        pausedReason: null,
        pausedAt: null,
        updatedAt: now,
      },
    })
    .returning();
  return row;
}

export async function deleteSchedule(db: Db, reportId: string): Promise<boolean> {
  const rows = await db
    .delete(runSchedules)
    .where(eq(runSchedules.reportId, reportId))
    .returning({ id: runSchedules.reportId });
  return rows.length > 0;
}

/** Records a scheduled refresh: the version it started (or why it could not) and the next time. */
export async function recordScheduleFired(
  db: Db,
  reportId: string,
  outcome: {
    lastRunId: string | null;
    pausedReason: string | null;
    pausedError: PausedError | null;
    nextRunAt: Date | null;
  },
): Promise<void> {
  const now = new Date();
  await db
    .update(runSchedules)
    .set({
      ...(outcome.lastRunId ? { lastRunId: outcome.lastRunId } : {}),
      pausedReason: outcome.pausedReason,
      pausedError: outcome.pausedError,
      pausedAt: outcome.pausedReason ? now : null,
      nextRunAt: outcome.nextRunAt,
      updatedAt: now,
    })
    .where(eq(runSchedules.reportId, reportId));
}

export interface ScheduleListRow extends RunSchedule {
  question: string;
}

/** The owner's schedules with their report's question, oldest first. */
export async function listSchedules(db: Db, ownerId: string): Promise<ScheduleListRow[]> {
  const rows = await db
    .select({ schedule: runSchedules, question: runs.question })
    .from(runSchedules)
    .innerJoin(runs, and(eq(runs.id, runSchedules.reportId), eq(runs.ownerId, ownerId)))
    .where(eq(runSchedules.ownerId, ownerId))
    .orderBy(asc(runSchedules.createdAt));
  return rows.map((r) => ({ ...r.schedule, question: r.question }));
}
