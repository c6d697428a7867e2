/**
 * Execution of a round: every runnable directive through the injected executor, in priority order
 * and at most `maxConcurrentResearchers` at once; and the clean-up of directives never run.
 */

import { because, type Why } from "../../because.ts";
import type { EngineDeps } from "../../deps.ts";
import { recoverableMessage, throwIfAborted } from "../../errors.ts";
import type { DirectiveRecord } from "../../store.ts";
import { deferWrite } from "../../writes-behind.ts";
import type { DirectiveOutcome } from "../directive/execute.ts";
import { mapWithConcurrency } from "./concurrency.ts";
import { executionOrder, isRunnable } from "./directives.ts";

/**
 * Researches one directive: marks it running/done/failed, stores its sources and result, and
 * returns ok:false rather than throwing — except for cancellation and an exhausted budget.
 */
export type ExecuteDirective = (directive: DirectiveRecord) => Promise<DirectiveOutcome>;

/** A person's low-priority request: it waits for spare researchers and ages out (see config). */
export function isLowUserDirective(d: Pick<DirectiveRecord, "origin" | "priority">): boolean {
  return d.origin === "user" && d.priority === "low";
}

/**
 * This round's queue: every runnable directive in priority order, except that low-priority user
 * directives only take researcher slots the others leave free; the rest wait for a later round.
 */
export function roundQueue(directives: readonly DirectiveRecord[], slots: number): DirectiveRecord[] {
  const queue = executionOrder(directives);
  const others = queue.filter((d) => !isLowUserDirective(d));
  const spare = Math.max(0, slots - others.length);
  return [...others, ...queue.filter(isLowUserDirective).slice(0, spare)];
}

/**
 * Skips the low-priority user directives that have waited `lowPriorityUserMaxRounds` rounds or
 * more by `round` (counted from the round they were added in), each with a `directive.aged_out`.
 * `directives` is the run's list when the caller has just read it. Returns the ids skipped.
 */
export async function ageOutLowUserDirectives(
  deps: EngineDeps,
  round: number,
  directives?: readonly DirectiveRecord[],
): Promise<Set<string>> {
  const limit = deps.config.lowPriorityUserMaxRounds;
  const aged = new Set<string>();
  for (const d of directives ?? (await deps.store.listDirectives())) {
    if (d.status !== "pending" || !isLowUserDirective(d) || round - d.round < limit) continue;
    const reason = `low-priority request waited ${round - d.round} rounds without a free researcher (limit ${limit})`;
    await deps.store.setDirectiveStatus(d.id, "skipped", reason);
    await deps.events.emit({
      type: "directive.aged_out",
      directiveId: d.id,
      round,
      addedInRound: d.round,
      topic: d.topic,
    });
    aged.add(d.id);
  }
  return aged;
}

/**
 * Runs the round's queue (pending directives and any left `running` by a dead worker; see
 * roundQueue) in priority order, at most `maxConcurrentResearchers` at once; from `directives`
 * when the caller has just read the run's list. A failing directive
 * is recorded and never fails the round; cancellation and an exhausted budget propagate.
 */
export async function executeRunnable(
  deps: EngineDeps,
  execute: ExecuteDirective,
  directives?: readonly DirectiveRecord[],
): Promise<{ outcomes: DirectiveOutcome[]; directives: DirectiveRecord[] }> {
  const listed = directives ?? (await deps.store.listDirectives());
  const queue = roundQueue(listed, deps.config.maxConcurrentResearchers);
  const results = await mapWithConcurrency(
    queue,
    deps.config.maxConcurrentResearchers,
    async (d): Promise<DirectiveOutcome> => {
      throwIfAborted(deps.signal);
      try {
        return await execute(d);
      } catch (e) {
        const error = recoverableMessage(e, deps.signal);
        await deps.store.setDirectiveStatus(d.id, "failed", error);
        await deps.events.emit({ type: "directive.failed", directiveId: d.id, error });
        return { directiveId: d.id, findings: "", sourceIds: [], ok: false };
      }
    },
    deps.signal,
  );
  // The executor owns the status; one that left it open would otherwise be re-run every round.
  const after = await deps.store.listDirectives();
  for (const [i, d] of queue.entries()) {
    const current = after.find((x) => x.id === d.id);
    if (current && isRunnable(current)) {
      const ok = results[i]?.ok ?? false;
      const error = ok ? null : "the researcher did not finish";
      await deps.store.setDirectiveStatus(d.id, ok ? "done" : "failed", error);
      Object.assign(current, { status: ok ? "done" : "failed", error });
    }
  }
  // The run's directives as they now stand: the round's coverage is measured from them.
  return { outcomes: results, directives: after };
}

/**
 * Directives still pending when supervision ends (e.g. added during the last round) are marked
 * skipped; with `includeRunning`, so are those a stopped or cancelled run left mid-research, so no
 * directive reads "running" after the research is over. Bookkeeping that nothing reads before the
 * next model call: written behind it when the engine writes behind (writes-behind.ts).
 */
export async function skipLeftovers(
  deps: EngineDeps,
  why: Why = leftoversOf.supervisionOver,
  opts: { includeRunning?: boolean } = {},
): Promise<void> {
  await deferWrite(deps, (direct) => skipPending(direct, why, opts));
}

/** Why directives open when the research stopped were not researched. */
export const leftoversOf = {
  supervisionOver: {
    reason: "supervision had finished before this directive could run",
    because: because("skip_supervision_over"),
  },
  cancelled: { reason: "the run was cancelled", because: because("skip_run_cancelled") },
  finishedEarly: {
    reason: "research was stopped early at the owner's request",
    because: because("skip_finished_early"),
  },
} satisfies Record<string, Why>;

async function skipPending(deps: EngineDeps, why: Why, opts: { includeRunning?: boolean }) {
  for (const d of await deps.store.listDirectives()) {
    if (d.status !== "pending" && !(opts.includeRunning && d.status === "running")) continue;
    await deps.store.setDirectiveStatus(d.id, "skipped", why.reason);
    await deps.events.emit({ type: "directive.skipped", directiveId: d.id, ...why });
  }
}
