/**
 * SUPERVISION: round 0 decomposes the brief into directives and researches them; rounds 1..N
 * think, assess coverage and delegate follow-ups for the gaps, until a stop rule fires. Every
 * round is checkpointed in its history row (first undecided, then with its decision), so a
 * resumed run re-runs no decided round, re-plans no planned one, and re-executes no finished
 * directive. The directive executor is injected (phases/directive/execute.ts in production).
 */

import type { EngineDeps } from "../../deps.ts";
import { throwIfAborted } from "../../errors.ts";
import { knowledgeBlock } from "../../prompts/data-blocks.ts";
import type { DirectiveRecord, KnowledgeItemRecord, SupervisionRoundRecord } from "../../store.ts";
import type { RoundDecision } from "../../vocabulary.ts";
import { deferWrite } from "../../writes-behind.ts";
import { selectKnowledge } from "../brief.ts";
import { coverageRecord } from "./coverage.ts";
import { planFollowUpRound } from "./coverage-rounds.ts";
import {
  announceDirectives,
  executionOrder,
  isRunnable,
  type LoadedCoverage,
  loadCoverage,
} from "./directives.ts";
import type { ExecuteDirective } from "./execution.ts";
import { ageOutLowUserDirectives, executeRunnable, skipLeftovers } from "./execution.ts";
import { memoryEntriesOf } from "./memory.ts";
import { planRoundZero } from "./round0.ts";

export type { DirectiveOutcome } from "../directive/execute.ts";
export type { ExecuteDirective } from "./execution.ts";

export type StopCode =
  | "supervision_disabled"
  | "max_rounds"
  | "coverage_sufficient"
  | "no_new_directives"
  | "no_new_sources"
  | "time_limit";

export interface SupervisionInput {
  brief: string;
  executeDirective: ExecuteDirective;
  /** Established knowledge of the run's owner; the relevant part within the budget reaches the supervisor. */
  knowledge?: readonly KnowledgeItemRecord[];
}

/**
 * The research as the last round read it when it ended in this attempt: directives, researcher
 * results, sources and each directive's sources. The report is written from it without reading
 * it all again.
 */
export type GatheredResearch = Omit<LoadedCoverage, "report" | "origins">;

export interface SupervisionOutcome {
  /** Rounds in the history, round 0 included. */
  rounds: number;
  stopReason: StopCode;
  directives: DirectiveRecord[];
  /** Set when the last round was executed and decided in this attempt (not after a resume or a planned stop). */
  gathered?: GatheredResearch;
}

interface Decision {
  decision: RoundDecision;
  code?: StopCode;
  reason: string;
}

/** A round decided in this attempt: the rows its coverage was measured from, and the rounds with it decided. */
interface RoundEnd extends LoadedCoverage {
  rounds: SupervisionRoundRecord[];
}

interface RoundContext {
  deps: EngineDeps;
  input: SupervisionInput;
  knowledge: string;
  startedAt: number;
  /**
   * The round before, when it was decided `continue` in this attempt. Nothing the engine writes
   * between that decision and the next round's start changes what it read, so the next round
   * measures coverage and rebuilds the supervisor's memory from it instead of reading it all again
   * (and can think while the round's end is still being written).
   */
  carried?: RoundEnd;
  /** The last round, when it was executed and decided `stop` in this attempt. */
  ended?: RoundEnd;
}

const STOP_CODES: readonly StopCode[] = [
  "supervision_disabled",
  "max_rounds",
  "coverage_sufficient",
  "no_new_directives",
  "no_new_sources",
  "time_limit",
];

// A stop's reason is stored as "<code>: <explanation>", readable in the history and parseable on resume.
const stop = (code: StopCode, detail: string): Decision => ({
  decision: "stop",
  code,
  reason: `${code}: ${detail}`,
});

function codeOf(reason: string | null): StopCode {
  const code = reason?.match(/^([a-z_]+):/)?.[1] as StopCode | undefined;
  return code && STOP_CODES.includes(code) ? code : "max_rounds";
}

export async function runSupervision(deps: EngineDeps, input: SupervisionInput): Promise<SupervisionOutcome> {
  const items = selectKnowledge(input.knowledge ?? [], input.brief, deps.config.knowledgeBudgetTokens);
  const ctx: RoundContext = { deps, input, knowledge: knowledgeBlock(items), startedAt: deps.clock.now() };
  const history = await deps.store.listRounds();
  const finished = history.find((r) => r.decision === "stop");
  let code: StopCode | undefined = finished ? codeOf(finished.reason) : undefined;
  const decided = history.filter((r) => r.decision !== null).map((r) => r.round);
  let round = decided.length ? Math.max(...decided) + 1 : 0;

  while (!code) {
    throwIfAborted(deps.signal);
    const result = round === 0 ? await roundZero(ctx) : await followUpRound(ctx, round);
    if (result.decision === "stop") code = result.code ?? "max_rounds";
    round++;
  }
  const ended = ctx.ended;
  if (ended) {
    // Directives left pending are skipped behind the report's first model call.
    await deferWrite(deps, (d) => skipLeftovers(d));
    const { report: _, origins: __, rounds: decided, ...gathered } = ended;
    return { rounds: decided.length, stopReason: code, directives: ended.directives, gathered };
  }
  await skipLeftovers(deps);
  const [rounds, directives] = await Promise.all([deps.store.listRounds(), deps.store.listDirectives()]);
  return { rounds: rounds.length, stopReason: code, directives };
}

/** The rounds as stored once `record` is saved (it replaces the stored row of its round). */
function withRound(rounds: readonly SupervisionRoundRecord[], record: SupervisionRoundRecord) {
  return [...rounds.filter((r) => r.round !== record.round), record].sort((x, y) => x.round - y.round);
}

async function savedRound(ctx: RoundContext, round: number): Promise<SupervisionRoundRecord | undefined> {
  return (await ctx.deps.store.listRounds()).find((r) => r.round === round && r.decision === null);
}

async function announceRound(
  deps: EngineDeps,
  round: number,
  directives?: readonly DirectiveRecord[],
): Promise<void> {
  const pending = (directives ?? (await deps.store.listDirectives())).filter(isRunnable).length;
  await deps.events.emit({ type: "supervision.round_started", round, pending });
}

/**
 * Plans round 0 (decompose → critique → revise → store) and checkpoints it as an undecided round,
 * unless that was already done. Exported so the orchestrator can plan, pause for plan review,
 * and then call runSupervision, which picks the checkpoint up and executes it.
 */
export async function planFirstRound(
  deps: EngineDeps,
  input: Pick<SupervisionInput, "brief" | "knowledge">,
): Promise<SupervisionRoundRecord> {
  return (await firstRoundPlan(deps, input)).record;
}

/** planFirstRound, with the run's directives as read after the plan when it was made now. */
async function firstRoundPlan(
  deps: EngineDeps,
  input: Pick<SupervisionInput, "brief" | "knowledge">,
): Promise<{ record: SupervisionRoundRecord; directives?: DirectiveRecord[] }> {
  const saved = (await deps.store.listRounds()).find((r) => r.round === 0);
  if (saved) return { record: saved };
  const items = selectKnowledge(input.knowledge ?? [], input.brief, deps.config.knowledgeBudgetTokens);
  const coverage = await loadCoverage(deps);
  const coverageBefore = coverageRecord(coverage.report);
  const planned = coverage.directives.filter((d) => d.origin === "supervisor" && d.round === 0);
  let generated = planned.length;
  let assessment: Record<string, unknown> = { resumed: true, finalCount: planned.length };
  // Directives stored but no checkpoint: the worker died in between, so the plan stands.
  if (!planned.length) {
    const plan = await planRoundZero(deps, { brief: input.brief, knowledge: knowledgeBlock(items) });
    generated = plan.created.length;
    assessment = plan.record;
  }
  let directives = await deps.store.listDirectives();
  if (!directives.some((d) => d.status !== "skipped")) {
    generated += await addBriefDirective(deps, input.brief);
    directives = await deps.store.listDirectives();
  }
  const record: SupervisionRoundRecord = {
    round: 0,
    method: "decomposition",
    directivesGenerated: generated,
    directivesExecuted: 0,
    newSources: 0,
    think: null,
    assessment,
    coverageBefore,
    coverageAfter: null,
    decision: null,
    reason: null,
  };
  // Written while the round's researchers make their first model calls (or before plan review's
  // next read); a run that stops before it lands keeps its stored plan (see above).
  await deferWrite(deps, (d) => d.store.saveRound(record));
  return { record, directives };
}

async function roundZero(ctx: RoundContext): Promise<Decision> {
  const { deps, input } = ctx;
  await announceRound(deps, 0);
  const { record, directives } = await firstRoundPlan(deps, input);
  return finishRound(
    ctx,
    record,
    () => {
      if (!deps.config.supervisionEnabled) {
        return stop("supervision_disabled", "coverage supervision is turned off for this run");
      }
      if (deps.config.maxSupervisionRounds === 0) {
        return stop("max_rounds", "no supervision rounds after round 0");
      }
      return undefined;
    },
    directives,
  );
}

/** When every proposed directive was refused (e.g. duplicates of user ones) and nothing is queued. */
async function addBriefDirective(deps: EngineDeps, brief: string): Promise<number> {
  const { created } = await deps.store.addDirectives([{ round: 0, topic: brief, origin: "supervisor" }]);
  await announceDirectives(deps, created);
  return created.length;
}

async function followUpRound(ctx: RoundContext, round: number): Promise<Decision> {
  const { deps, input } = ctx;
  const carried = ctx.carried;
  ctx.carried = undefined;
  // After a round decided in this attempt, the start is written while the supervisor thinks.
  if (carried) await deferWrite(deps, (d) => announceRound(d, round, carried.directives));
  else await announceRound(deps, round);
  // A round that follows one decided in this attempt cannot have been planned yet (only a resumed
  // run finds its round saved undecided).
  let record = carried ? undefined : await savedRound(ctx, round);
  let directives: DirectiveRecord[] | undefined;
  if (!record) {
    const coverage = carried ?? (await loadCoverage(deps));
    const plan = await planFollowUpRound(deps, {
      brief: input.brief,
      round,
      knowledge: ctx.knowledge,
      coverage: coverage.report,
      origins: coverage.origins,
      memory: carried && memoryEntriesOf(carried),
    });
    directives = await deps.store.listDirectives();
    const runnable = executionOrder(directives);
    const planned = plan.stop
      ? stop(plan.stop.code, plan.stop.reason)
      : runnable.length
        ? undefined
        : stop("no_new_directives", plan.noFollowUps ?? "nothing is left to research");
    const coverageBefore = coverageRecord(coverage.report);
    record = {
      round,
      method: "coverage",
      directivesGenerated: plan.generated.length,
      directivesExecuted: 0,
      newSources: 0,
      think: plan.think,
      assessment: { ...plan.assessment, ...(planned ? { plannedStop: planned.reason } : {}) },
      coverageBefore,
      coverageAfter: null,
      decision: null,
      reason: null,
    };
    if (!runnable.length && planned) {
      const final = {
        ...record,
        coverageAfter: coverageBefore,
        decision: "stop" as const,
        reason: planned.reason,
      };
      await deferWrite(deps, async (d) => {
        await d.store.saveRound(final);
        await d.events.emit({
          type: "supervision.round_completed",
          round,
          decision: "stop",
          reason: planned.reason,
        });
      });
      // Nothing was researched since the round before read the run: the report can start from that.
      if (carried) ctx.ended = { ...carried, directives, rounds: withRound(carried.rounds, final) };
      return planned;
    }
    // The plan's record is written while the round's researchers make their first model calls.
    const undecided = record;
    await deferWrite(deps, (d) => d.store.saveRound(undecided));
  }
  const plannedStop = record.assessment?.plannedStop;
  return finishRound(
    ctx,
    record,
    (executed) => {
      if (typeof plannedStop === "string") {
        const suffix = executed ? `; the ${executed} queued directive(s) were still researched` : "";
        return { decision: "stop", code: codeOf(plannedStop), reason: plannedStop + suffix };
      }
      if (round >= deps.config.maxSupervisionRounds) {
        return stop(
          "max_rounds",
          `reached the limit of ${deps.config.maxSupervisionRounds} supervision rounds`,
        );
      }
      return undefined;
    },
    directives,
  );
}

/**
 * Executes the round's runnable directives, measures coverage, decides (the round's own stop
 * rule first, then no new sources and the wall-clock limit) and saves the decided round.
 * `directives` is the run's list when the caller read it just before (after the round's plan).
 */
async function finishRound(
  ctx: RoundContext,
  record: SupervisionRoundRecord,
  roundRule: (executed: number) => Decision | undefined,
  directives?: readonly DirectiveRecord[],
): Promise<Decision> {
  const { deps } = ctx;
  const aged = await ageOutLowUserDirectives(deps, record.round, directives);
  const researched = await executeRunnable(
    deps,
    ctx.input.executeDirective,
    directives?.filter((d) => !aged.has(d.id)),
  );
  const [after, stored] = await Promise.all([loadCoverage(deps, researched), deps.store.listRounds()]);
  const before = record.coverageBefore as {
    totalSources?: number;
    directives?: { directiveId: string; status: string }[];
  };
  const attemptedBefore = new Set(
    (before?.directives ?? [])
      .filter((d) => d.status === "done" || d.status === "failed")
      .map((d) => d.directiveId),
  );
  const executed = after.report.directives.filter(
    (d) => (d.status === "done" || d.status === "failed") && !attemptedBefore.has(d.directiveId),
  ).length;
  const newSources = after.report.totalSources - (before?.totalSources ?? 0);
  const elapsed = deps.clock.now() - ctx.startedAt;
  const decision =
    roundRule(executed) ??
    (newSources <= 0
      ? stop("no_new_sources", `round ${record.round} found no new sources`)
      : elapsed >= deps.config.phaseTimeoutMs
        ? stop(
            "time_limit",
            `supervision ran ${Math.round(elapsed / 1000)} s, over its ${Math.round(deps.config.phaseTimeoutMs / 1000)} s limit`,
          )
        : {
            decision: "continue" as const,
            reason: `${executed} directive(s) researched, ${newSources} new source(s); heuristic confidence ${after.report.heuristic.confidence.toFixed(2)}`,
          });
  const decided: SupervisionRoundRecord = {
    ...record,
    directivesExecuted: executed,
    newSources: Math.max(0, newSources),
    coverageAfter: coverageRecord(after.report),
    decision: decision.decision,
    reason: decision.reason,
  };
  // The round's end is written while the next step's first model call (the next round's thought,
  // or the report) is out; a run that stops before it lands decides this round again on resume.
  await deferWrite(deps, async (d) => {
    await d.store.saveRound(decided);
    await d.events.emit({
      type: "supervision.round_completed",
      round: decided.round,
      decision: decision.decision,
      reason: decision.reason,
    });
  });
  const rounds = withRound(stored, decided);
  if (decision.decision === "continue") ctx.carried = { ...after, rounds };
  else ctx.ended = { ...after, rounds };
  return decision;
}
