/**
 * One firing of a report's schedule (a SCHEDULE_QUEUE job): start a new version of the report
 * through the one start path, so the owner's rate limit, slots, own limits, monthly budget and
 * storage quota all apply. When they say no, the schedule is paused with their reason (shown on the
 * run and account pages) and the owner gets a notice; the next firing tries again and lifts the
 * pause when it starts.
 */
import { insertNotification } from "../../../db/queries/notifications.ts";
import { listVersions } from "../../../db/queries/run-versions.ts";
import { getRun } from "../../../db/queries/runs.ts";
import { getSchedule, recordScheduleFired } from "../../../db/queries/schedules.ts";
import type { Run } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { getBoss } from "../../jobs/queue.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { nextFireTime, removeQueueSchedule } from "../../jobs/schedules/queue.ts";
import { userRateLimitKey } from "../rate-limits.ts";
import { refreshRun } from "../runs/refresh.ts";
import type { StartedRun } from "../runs/start.ts";

/** Errors that mean "not now" for this owner: limits, budget, quota, configuration. */
const pausingCodes = new Set([
  "rate_limited",
  "quota_exceeded",
  "payload_too_large",
  "conflict",
  "not_configured",
  "validation_failed",
]);

export type FireOutcome =
  | { kind: "started"; runId: string }
  | { kind: "paused"; reason: string }
  | { kind: "skipped"; reason: string };

export async function fireScheduledRefresh(
  rt: Runtime,
  reportId: string,
  env: Env = process.env,
): Promise<FireOutcome> {
  const db = rt.handle.db;
  const boss = await getBoss(rt.handle);
  const schedule = await getSchedule(db, reportId);
  if (!schedule) {
    // Removed (or its report deleted) after this firing was queued: the pg-boss schedule goes too.
    await removeQueueSchedule(boss, reportId);
    return { kind: "skipped", reason: "no schedule" };
  }
  const nextRunAt = nextFireTime(boss, schedule.cron);
  const latest = await latestFinishedVersion(rt, reportId, schedule.ownerId);
  if (latest.kind === "busy") {
    // A version is still being researched: this firing adds nothing to it.
    await recordScheduleFired(db, reportId, {
      lastRunId: null,
      pausedReason: schedule.pausedReason,
      pausedError: schedule.pausedError,
      nextRunAt,
    });
    return { kind: "skipped", reason: "a version is still running" };
  }
  try {
    if (latest.kind === "none")
      throw new AppError("conflict", "The report has no finished version to refresh.");
    const started = await startScheduledVersion(rt, latest.run, env);
    await recordScheduleFired(db, reportId, {
      lastRunId: started.id,
      pausedReason: null,
      pausedError: null,
      nextRunAt,
    });
    return { kind: "started", runId: started.id };
  } catch (e) {
    if (!(e instanceof AppError) || !pausingCodes.has(e.code)) throw e; // the queue retries it
    const pausedError = { code: e.code, details: plainDetails(e.details) };
    await recordScheduleFired(db, reportId, {
      lastRunId: null,
      pausedReason: e.message,
      pausedError,
      nextRunAt,
    });
    // One notice when the schedule pauses, not one per firing while it stays paused.
    if (!schedule.pausedReason) {
      await insertNotification(db, {
        ownerId: schedule.ownerId,
        kind: "schedule_paused",
        runId: reportId,
        data: { reason: e.message, ...pausedError },
      });
    }
    return { kind: "paused", reason: e.message };
  }
}

/** An error's details as stored JSON: an object, or none. */
function plainDetails(details: unknown): Record<string, unknown> | null {
  return details && typeof details === "object" && !Array.isArray(details)
    ? (details as Record<string, unknown>)
    : null;
}

type Latest = { kind: "finished"; run: Run } | { kind: "busy" } | { kind: "none" };

async function latestFinishedVersion(rt: Runtime, reportId: string, ownerId: string): Promise<Latest> {
  const versions = await listVersions(rt.handle.db, reportId, ownerId);
  if (versions.some((v) => v.status === "queued" || v.status === "running")) return { kind: "busy" };
  const done = versions.filter((v) => v.status === "completed").at(-1);
  const run = done && (await getRun(rt.handle.db, done.id));
  return run ? { kind: "finished", run } : { kind: "none" };
}

/** A new version of the report from its latest finished one, by the same path as the Refresh button. */
function startScheduledVersion(rt: Runtime, from: Run, env: Env): Promise<StartedRun> {
  const starter = { caller: { userId: from.ownerId }, rateLimitKey: userRateLimitKey(from.ownerId) };
  return refreshRun(rt, starter, from.id, env);
}
