/**
 * Scheduled refresh in the queue: each report's schedule is one pg-boss schedule on SCHEDULE_QUEUE,
 * keyed by the report's first run id (one per report), so it is stored in the database — durable
 * across restarts, and fired once however many processes run pg-boss's clock. Each firing is a job
 * `{reportId}` that the web tier's schedule worker turns into a new version (lib/server/schedules).
 */
import type { PgBoss } from "pg-boss";
import type { ScheduleInterval } from "../../../db/schema.ts";

export const SCHEDULE_QUEUE = "scheduled-refresh";

export interface ScheduleJobData {
  reportId: string;
}

export async function ensureScheduleQueue(boss: PgBoss): Promise<void> {
  // A firing only creates a run (or records why not): a few quick retries cover a passing error.
  const options = { retryLimit: 3, retryDelay: 30, expireInSeconds: 300 };
  const existing = await boss.getQueue(SCHEDULE_QUEUE);
  if (!existing) await boss.createQueue(SCHEDULE_QUEUE, options);
  else await boss.updateQueue(SCHEDULE_QUEUE, options);
}

/**
 * The cron expression (UTC) for a schedule set at `from`: at that time of day, every day; on that
 * weekday, every week; on that day of the month (at most the 28th, so every month has it).
 */
export function cronFor(every: ScheduleInterval, from: Date): string {
  const m = from.getUTCMinutes();
  const h = from.getUTCHours();
  if (every === "day") return `${m} ${h} * * *`;
  if (every === "week") return `${m} ${h} * * ${from.getUTCDay()}`;
  return `${m} ${h} ${Math.min(from.getUTCDate(), 28)} * *`;
}

/** The next time the expression fires after `from` (what the pages show). */
export function nextFireTime(boss: PgBoss, cron: string, from = new Date()): Date | null {
  return boss.previewSchedule(cron, { from, count: 1 })[0] ?? null;
}

/** Puts the report's schedule in pg-boss (replacing its earlier interval, if any). */
export async function putQueueSchedule(boss: PgBoss, reportId: string, cron: string): Promise<void> {
  await ensureScheduleQueue(boss);
  await boss.schedule(SCHEDULE_QUEUE, cron, { reportId } satisfies ScheduleJobData, {
    key: reportId,
    tz: "UTC",
    singletonKey: reportId,
  });
}

export async function removeQueueSchedule(boss: PgBoss, reportId: string): Promise<void> {
  await ensureScheduleQueue(boss);
  await boss.unschedule(SCHEDULE_QUEUE, reportId);
}
