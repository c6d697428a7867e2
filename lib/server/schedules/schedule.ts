/**
 * A report's scheduled refresh (PUT/GET/DELETE /api/runs/:id/schedule, the run page's schedule
 * form, the account page's list): one schedule per report, keyed by its first run, whichever of its
 * versions the request names. The schedule is pg-boss's (durable, fired once across processes);
 * run_schedules keeps the interval, next time and pause reason the pages show.
 */
import { z } from "zod";
import { getReport } from "../../../db/queries/research.ts";
import { deleteSchedule, getSchedule, listSchedules, upsertSchedule } from "../../../db/queries/schedules.ts";
import { type PausedError, type RunSchedule, scheduleIntervals } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { getBoss } from "../../jobs/queue.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { cronFor, nextFireTime, putQueueSchedule, removeQueueSchedule } from "../../jobs/schedules/queue.ts";
import { ownedRun } from "../runs/owned.ts";

export const scheduleRequestSchema = z.strictObject({
  every: z.enum(scheduleIntervals).meta({ description: "How often the report is refreshed (UTC)." }),
});
export type ScheduleRequest = z.infer<typeof scheduleRequestSchema>;

export interface ScheduleView {
  /** The report's first run: its versions share this schedule. */
  reportId: string;
  every: RunSchedule["every"];
  nextRunAt: Date | null;
  /** Why the last scheduled refresh did not start (the owner's limits or budget); null when running as planned. */
  pausedReason: string | null;
  /** The same as the API error it was (code, details): the UI says it in the reader's language. */
  pausedError: PausedError | null;
  pausedAt: Date | null;
  /** The version the schedule started last, if any. */
  lastRunId: string | null;
}

export function scheduleView(s: RunSchedule): ScheduleView {
  const { reportId, every, nextRunAt, pausedReason, pausedError, pausedAt, lastRunId } = s;
  return { reportId, every, nextRunAt, pausedReason, pausedError, pausedAt, lastRunId };
}

/** Schedules (or reschedules) the refresh of the report `runId` belongs to; the run needs a report. */
export async function setSchedule(
  rt: Runtime,
  ownerId: string,
  runId: string,
  input: ScheduleRequest,
): Promise<ScheduleView> {
  const db = rt.handle.db;
  const run = await ownedRun(db, runId, ownerId);
  if (!(await getReport(db, run.id))) {
    throw new AppError("conflict", "This run has no report yet: a schedule refreshes a finished report.");
  }
  const reportId = run.versionOf ?? run.id;
  const now = new Date();
  const cron = cronFor(input.every, now);
  const boss = await getBoss(rt.handle);
  await putQueueSchedule(boss, reportId, cron);
  const row = await upsertSchedule(db, {
    reportId,
    ownerId,
    every: input.every,
    cron,
    nextRunAt: nextFireTime(boss, cron, now),
  });
  return scheduleView(row);
}

/** The schedule of the report `runId` belongs to, or null. */
export async function getRunSchedule(
  rt: Runtime,
  ownerId: string,
  runId: string,
): Promise<ScheduleView | null> {
  const run = await ownedRun(rt.handle.db, runId, ownerId);
  const row = await getSchedule(rt.handle.db, run.versionOf ?? run.id);
  return row && row.ownerId === ownerId ? scheduleView(row) : null;
}

/** Removes the report's schedule (nothing to remove is fine): `{removed}` says whether there was one. */
export async function removeSchedule(
  rt: Runtime,
  ownerId: string,
  runId: string,
): Promise<{ removed: boolean }> {
  const run = await ownedRun(rt.handle.db, runId, ownerId);
  const reportId = run.versionOf ?? run.id;
  await removeQueueSchedule(await getBoss(rt.handle), reportId);
  return { removed: await deleteSchedule(rt.handle.db, reportId) };
}

export interface ScheduleListItem extends ScheduleView {
  question: string;
}

/** The person's schedules, for the account page. */
export async function listMySchedules(rt: Runtime, ownerId: string): Promise<ScheduleListItem[]> {
  const rows = await listSchedules(rt.handle.db, ownerId);
  return rows.map((r) => ({ ...scheduleView(r), question: r.question }));
}
