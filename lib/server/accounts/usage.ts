/**
 * A person's own usage for the account page and GET /api/account/usage: the last 30 days (UTC) by
 * day, with days without runs as zeros so the chart has no gaps, and by model role.
 */
import { type DayUsageRow, type RoleUsageRow, usageByDay, usageByRole } from "../../../db/queries/usage.ts";
import { type QuotaName, type QuotaUse, storageUse } from "../../jobs/quotas.ts";
import type { Runtime } from "../runtime.ts";

export const USAGE_DAYS = 30;

export interface UsageReport {
  since: string;
  days: DayUsageRow[];
  byRole: RoleUsageRow[];
  total: { runs: number; calls: number; tokens: number; costUsd: number };
}

/** Midnight UTC `days - 1` days before `now`: the window starts at the beginning of its first day. */
export function windowStart(now: Date, days: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
}

/** Every day of the window, oldest first, with the rows' figures or zeros. */
export function fillDays(rows: DayUsageRow[], since: Date, days: number): DayUsageRow[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, runs: 0, calls: 0, tokens: 0, costUsd: 0 };
  });
}

export async function usageReport(
  rt: Runtime,
  ownerId: string | undefined,
  now = new Date(),
  days = USAGE_DAYS,
): Promise<UsageReport> {
  const since = windowStart(now, days);
  const db = rt.handle.db;
  const [dayRows, byRole] = await Promise.all([
    usageByDay(db, ownerId, since),
    usageByRole(db, ownerId, since),
  ]);
  const filled = fillDays(dayRows, since, days);
  const total = filled.reduce(
    (t, d) => ({
      runs: t.runs + d.runs,
      calls: t.calls + d.calls,
      tokens: t.tokens + d.tokens,
      costUsd: t.costUsd + d.costUsd,
    }),
    { runs: 0, calls: 0, tokens: 0, costUsd: 0 },
  );
  return { since: since.toISOString(), days: filled, byRole, total };
}

/** What the owner stores against each of their quotas (GET /api/account/usage's `storage`). */
export function storageReport(rt: Runtime, ownerId: string): Promise<Record<QuotaName, QuotaUse>> {
  return storageUse(rt.handle.db, ownerId);
}
