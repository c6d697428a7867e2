/**
 * The admin's system page and GET /api/admin/system: what is running and waiting, what failed and
 * why, how often model calls had to be retried, and what runs cost per day. All from the database.
 */
import {
  countEndedRuns,
  listRecentFailures,
  listUnfinishedRuns,
  modelErrorsByRole,
} from "../../db/queries/system.ts";
import { usageByDay } from "../../db/queries/usage.ts";
import type { Runtime } from "./runtime.ts";
import { fillDays, windowStart } from "./usage.ts";

export const SYSTEM_DAYS = 30;

export async function systemOverview(rt: Runtime, now = new Date()) {
  const db = rt.handle.db;
  const since = windowStart(now, SYSTEM_DAYS);
  const [unfinished, failures, ended, models, days] = await Promise.all([
    listUnfinishedRuns(db),
    listRecentFailures(db),
    countEndedRuns(db, since),
    modelErrorsByRole(db, since),
    usageByDay(db, undefined, since),
  ]);
  const ageSeconds = (d: Date) => Math.max(0, Math.round((now.getTime() - d.getTime()) / 1000));
  return {
    generatedAt: now.toISOString(),
    since: since.toISOString(),
    runs: unfinished.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      startedAt: r.startedAt?.toISOString() ?? null,
      ageSeconds: ageSeconds(r.createdAt),
    })),
    failures: failures.map((f) => ({ ...f, finishedAt: f.finishedAt?.toISOString() ?? null })),
    ended: {
      completed: ended.completed ?? 0,
      failed: ended.failed ?? 0,
      cancelled: ended.cancelled ?? 0,
    },
    models: models.map((m) => ({
      ...m,
      // Of all attempts (successful calls plus retried ones), the share that failed and was retried.
      errorRate: m.calls + m.retries === 0 ? 0 : m.retries / (m.calls + m.retries),
    })),
    costByDay: fillDays(days, since, SYSTEM_DAYS),
  };
}
export type SystemOverview = Awaited<ReturnType<typeof systemOverview>>;
