/**
 * Starting a run: the one path POST /api/runs, the home page's form, "run again" and the MCP
 * start_research tool all take. The checks, in order: the configuration can run it (409), the
 * request is counted against the caller's "runs" rate limit (429), the caller's token webhook is
 * attached, then the run is created within the server's ceilings, the owner's quota, slots and
 * limits, and enqueued when a slot is free.
 */
import { seedRunFrom } from "../../../db/queries/lineage.ts";
import { createRun, getRun, lockOwnerRunSlots, queuePosition } from "../../../db/queries/runs.ts";
import { markCitedForRecheck } from "../../../db/queries/source-recheck.ts";
import type { Run } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { withEventTransaction } from "../../jobs/event-sink.ts";
import { getBoss } from "../../jobs/queue.ts";
import { assertSourceTextRoom } from "../../jobs/quotas.ts";
import { runCeilingsFromEnv, runCeilingViolations } from "../../jobs/run-limits.ts";
import { admitWaitingRuns, hasRoomForRun, runSlotLimitsFromEnv } from "../../jobs/run-slots.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { effectiveConfig } from "../../jobs/settings/effective-config.ts";
import { applyUserLimits } from "../accounts/limits.ts";
import { withCallerWebhook } from "../accounts/webhook-secret.ts";
import type { Caller } from "../auth/caller.ts";
import { requireConfiguredRun } from "../model-config.ts";
import { consumeRateLimit } from "../rate-limits.ts";
import { serverEffectiveEnv, withModelChains } from "../settings/effective.ts";
import { type CreateRunInput, runSettingsSchema } from "./input.ts";
import { ownedRun } from "./owned.ts";

export type StartedRun = Run & { queuePosition: number | null; warnings: string[] };

/**
 * A run started from an earlier one of the same owner: it copies that run's read sources (with
 * their text) and researched directives with their findings (db/queries/lineage.ts), may start
 * with a brief already written, and records its lineage.
 */
export interface RunSeed {
  fromRunId: string;
  brief?: string;
  lineage: { parentId?: string; versionOf?: string };
  /** A refresh: the copies of the sources the earlier run's report cited are fetched again by the job. */
  recheckCited?: boolean;
}

/** Who starts the run, and the key their request is counted under (the same for every adapter of a person). */
export interface Starter {
  caller: Pick<Caller, "userId" | "tokenId">;
  rateLimitKey: string;
}

/** Starts a run of `input` (already parsed with createRunSchema) for the starter. */
export async function startRun(
  rt: Runtime,
  starter: Starter,
  input: CreateRunInput,
  env: Env = process.env,
  seed?: RunSeed,
): Promise<StartedRun> {
  requireConfiguredRun(input.settings, await serverEffectiveEnv(rt));
  // Counted once the request could create a run: a malformed or unrunnable one is told so, not throttled.
  await consumeRateLimit(rt.handle, "runs", starter.rateLimitKey, env);
  const settings = await withCallerWebhook(rt, starter.caller, input.settings);
  const ownerId = starter.caller.userId;
  return createAndEnqueueRun(rt, { ownerId, question: input.question, settings, seed }, env);
}

/** Run again: the same question and settings as one of the starter's runs, as a new run. */
export async function runAgain(rt: Runtime, starter: Starter, runId: string): Promise<StartedRun> {
  const run = await ownedRun(rt.handle.db, runId, starter.caller.userId);
  const parsed = runSettingsSchema.safeParse(run.settings);
  if (!parsed.success) {
    throw new AppError(
      "conflict",
      "This run's settings are no longer accepted; start it from the home page.",
    );
  }
  return startRun(rt, starter, { question: run.question, settings: parsed.data });
}

/**
 * Creates the run and, when its owner has a free slot, its job; otherwise it waits in the owner's
 * queue (`queuePosition` 1 is next). Settings above the server's ceilings are refused (422), and
 * so is a run beyond the owner's queue limit or their own limits (429, lib/server/user-limits.ts),
 * and a run of an owner whose stored source text has reached QUOTA_SOURCE_TEXT_MB (413).
 */
export async function createAndEnqueueRun(
  rt: Runtime,
  input: { ownerId: string; question: string; settings: Record<string, unknown>; seed?: RunSeed },
  env: Env = process.env,
): Promise<StartedRun> {
  // The run keeps the chains of models it was created with, whatever the settings say later.
  const effective = await effectiveConfig(rt.handle.db, env);
  const { settings, warnings } = withModelChains(input.settings, effective);
  const issues = runCeilingViolations(settings, runCeilingsFromEnv(effective.env));
  if (issues.length) {
    throw new AppError("validation_failed", `Invalid request: ${issues.join("; ")}`, { details: issues });
  }
  await assertSourceTextRoom(rt.handle.db, input.ownerId, effective.env);
  const limits = runSlotLimitsFromEnv(effective.env);
  const boss = await getBoss(rt.handle);
  return withEventTransaction(rt.handle.db, rt.bus, async (tx, events) => {
    await lockOwnerRunSlots(tx, input.ownerId);
    if (!(await hasRoomForRun(tx, input.ownerId, limits))) {
      throw new AppError(
        "rate_limited",
        `You have as many runs as this server takes from one user: ${limits.maxActive} running and ${limits.maxQueued} waiting. Wait for one to finish, or cancel one.`,
        { details: { maxActive: limits.maxActive, maxQueued: limits.maxQueued } },
      );
    }
    // The person's own limits (set by an admin): may refuse, or lower the run's cost budget.
    const limited = await applyUserLimits(tx, input.ownerId, settings, new Date(), effective.env);
    const { seed, ...fields } = input;
    const created = await createRun(tx, {
      ...fields,
      ...seed?.lineage,
      brief: seed?.brief,
      settings: limited,
    });
    // In the run's own transaction: its job never sees a run without its inherited research.
    if (seed) await seedRunFrom(tx, seed.fromRunId, created.id);
    if (seed?.recheckCited) await markCitedForRecheck(tx, seed.fromRunId, created.id);
    await events.append(created.id, {
      type: "run.created",
      question: created.question,
      settings: created.settings,
      ...(warnings.length ? { warnings } : {}),
    });
    const admitted = await admitWaitingRuns(tx, boss, input.ownerId, limits, created.id);
    const run = admitted.includes(created.id) ? ((await getRun(tx, created.id)) ?? created) : created;
    return { ...run, queuePosition: await queuePosition(tx, run), warnings };
  });
}
