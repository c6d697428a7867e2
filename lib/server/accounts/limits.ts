/**
 * Per-person limits an admin sets on /admin (issue 16): how many runs a person may have unfinished
 * at once, and what their runs may cost in a calendar month (UTC). Null means the server's defaults
 * (RUNS_MAX_ACTIVE_PER_USER / RUNS_MAX_QUEUED_PER_USER and RUN_MAX_COST_USD) are all that apply.
 * Checked when a run is created, inside the owner's slot lock, so two requests cannot both pass.
 */
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import {
  costSince,
  countUnfinishedRuns,
  getUserLimits,
  listUserLimits,
} from "../../../db/queries/user-limits.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { runCeilingsFromEnv } from "../../jobs/run-limits.ts";
import { runSlotLimitsFromEnv } from "../../jobs/run-slots.ts";
import type { Runtime } from "../runtime.ts";

export const userLimitsSchema = z.strictObject({
  maxConcurrentRuns: z.number().int().min(1).max(1000).nullable(),
  monthlyCostLimitUsd: z.number().positive().max(1_000_000).nullable(),
});
export type UserLimitsInput = z.infer<typeof userLimitsSchema>;

export interface UserLimitsView extends UserLimitsInput {
  userId: string;
}

/** The first instant of `now`'s calendar month in UTC: the monthly cost limit counts from here. */
export function monthStartUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

const usd = (n: number) => `$${n.toFixed(2)}`;

/**
 * Refuses the run (429) when the owner is at their limits, and otherwise returns its settings with
 * the cost budget lowered to what is left of the month. Call inside the owner's slot lock.
 */
export async function applyUserLimits(
  tx: Db,
  ownerId: string,
  settings: Record<string, unknown>,
  now = new Date(),
  env: Env = process.env,
): Promise<Record<string, unknown>> {
  const limits = await getUserLimits(tx, ownerId);
  if (!limits) return settings;
  const { maxConcurrentRuns: maxRuns, monthlyCostLimitUsd: monthly } = limits;
  if (maxRuns !== null) {
    const unfinished = await countUnfinishedRuns(tx, ownerId);
    if (unfinished >= maxRuns) {
      throw new AppError(
        "rate_limited",
        `You have ${unfinished} run${unfinished === 1 ? "" : "s"} in progress (your limit is ${maxRuns}). Wait for one to finish, or cancel one.`,
        { details: { inProgress: unfinished, maxConcurrentRuns: maxRuns } },
      );
    }
  }
  if (monthly === null) return settings;
  const spent = await costSince(tx, ownerId, monthStartUtc(now));
  if (spent >= monthly) {
    throw new AppError(
      "rate_limited",
      `Your runs this month have cost ${usd(spent)}, which reaches your monthly limit of ${usd(monthly)}. The limit starts again on the 1st (UTC); an admin can raise it.`,
      { details: { spentUsd: spent, monthlyCostLimitUsd: monthly } },
    );
  }
  const budget = (settings.budget ?? {}) as { maxTokens?: number; maxCostUsd?: number };
  const asked = budget.maxCostUsd ?? runCeilingsFromEnv(env).defaultCostUsd;
  return { ...settings, budget: { ...budget, maxCostUsd: Math.min(asked, monthly - spent) } };
}

/** What applies to a person without limits of their own (the admin page says it in words). */
export function defaultLimits(env: Env = process.env): {
  running: number;
  waiting: number;
  maxCostUsd: number;
} {
  const slots = runSlotLimitsFromEnv(env);
  return {
    running: slots.maxActive,
    waiting: slots.maxQueued,
    maxCostUsd: runCeilingsFromEnv(env).maxCostUsd,
  };
}

/** Every person's limits that differ from the defaults, by user id (for the admin page). */
export async function limitsByUser(rt: Runtime): Promise<Record<string, UserLimitsView>> {
  const rows = await listUserLimits(rt.handle.db);
  return Object.fromEntries(
    rows.map((r) => [
      r.userId,
      {
        userId: r.userId,
        maxConcurrentRuns: r.maxConcurrentRuns,
        monthlyCostLimitUsd: r.monthlyCostLimitUsd,
      },
    ]),
  );
}
