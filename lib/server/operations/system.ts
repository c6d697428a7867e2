/**
 * The admin's system page and GET /api/admin/system: what is running and waiting, what failed and
 * why, how often model calls had to be retried, and what runs cost per day. All from the database,
 * and none of it the research itself: runs appear by account and state, never by their question.
 */
import {
  countEndedRuns,
  listRecentFailures,
  listUnfinishedRuns,
  modelErrorsByRole,
} from "../../../db/queries/system.ts";
import { usageByDay } from "../../../db/queries/usage.ts";
import type { Because } from "../../research/index.ts";
import { fillDays, windowStart } from "../accounts/usage.ts";
import type { Runtime } from "../runtime.ts";

export const SYSTEM_DAYS = 30;

const REASON_MAX_CHARS = 240;

/**
 * What an operator needs of a failure reason: its kind and where it happened — the first two
 * clauses ("The run failed: synthesis model X failed (HTTP 500)"). What follows is the provider's or
 * parser's own text, which can quote the prompt or the model's output, so it stays on the owner's run
 * page; the question is taken out wherever it still appears.
 */
export function failureSummary(error: string | null, question: string): string | null {
  if (!error) return null;
  const clauses = error.split(": ");
  let summary = clauses.slice(0, 2).join(": ");
  if (question.trim()) summary = summary.replaceAll(question, "[the question]");
  if (clauses.length > 2) summary += " (the details are on the run's page, for its owner)";
  return summary.length > REASON_MAX_CHARS ? `${summary.slice(0, REASON_MAX_CHARS - 1)}…` : summary;
}

/**
 * The reason's code for an operator: of a provider's own words (`said`) only the first clause (ours,
 * e.g. "synthesis model X failed (HTTP 500)"), as above; `cut` when more is on the run's page.
 */
export function operatorBecause(
  why: Because | null,
  question: string,
): { because: Because | null; cut: boolean } {
  const said = why?.values?.said;
  if (!why || typeof said !== "string") return { because: why, cut: false };
  const [first, ...rest] = said.split(": ");
  const clause = question.trim() ? first.replaceAll(question, "[the question]") : first;
  const values = { ...why.values, said: clause.slice(0, REASON_MAX_CHARS) };
  return { because: { code: why.code, values }, cut: rest.length > 0 || clause.length > REASON_MAX_CHARS };
}

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
    failures: failures.map(({ question, error, errorBecause, ...f }) => ({
      ...f,
      error: failureSummary(error, question),
      ...operatorBecause(errorBecause, question),
      finishedAt: f.finishedAt?.toISOString() ?? null,
    })),
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
