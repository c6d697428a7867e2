/**
 * SUPERVISION (docs/ARCHITECTURE.md, "The moving parts"): round 0 decomposes the brief into directives (generate → critique →
 * revise, round0.ts) and researches them; each round after it thinks, assesses coverage and
 * delegates follow-ups for the gaps (coverage-rounds.ts), researches them, and is decided — until
 * a stop rule fires (round-decisions.ts).
 *
 * Every round is checkpointed in its history row (first undecided, then with its decision), so a
 * resumed run re-runs no decided round, re-plans no planned one, and re-executes no finished
 * directive. The directive executor is injected (phases/directive/execute.ts in production).
 * Which of the round's writes wait for the next model call is the store's policy (writes-behind.ts).
 */

import { because } from "../../because.ts";
import type { EngineDeps } from "../../deps.ts";
import { throwIfAborted } from "../../errors.ts";
import { knowledgeBlock, type PriorFinding, priorResearchBlock } from "../../prompts/data-blocks.ts";
import type { DirectiveRecord, KnowledgeItemRecord, SupervisionRoundRecord } from "../../store.ts";
import type { RoundDecision } from "../../vocabulary.ts";
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
import {
  codeOf,
  type Decision,
  decideRound,
  followUpRule,
  plannedRecord,
  type RoundRule,
  roundYield,
  roundZeroRule,
  type StopCode,
  stop,
  withRound,
} from "./round-decisions.ts";
import { planRoundZero } from "./round0.ts";

export type { DirectiveOutcome } from "../directive/execute.ts";
export type { ExecuteDirective } from "./execution.ts";
export type { StopCode } from "./round-decisions.ts";

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

/** What a round decided in this attempt read when it ended: its coverage rows, and the rounds with it decided. */
interface RoundEnd extends LoadedCoverage {
  rounds: SupervisionRoundRecord[];
}

interface RoundContext {
  deps: EngineDeps;
  input: SupervisionInput;
  knowledge: string;
  startedAt: number;
  /**
   * What the last round decided in this attempt read. Nothing the engine writes between a
   * decision and the next step changes it, so the next round measures coverage and rebuilds the
   * supervisor's memory from it, and the report is written from it, without reading it all again.
   */
  lastRead?: RoundEnd;
}

export async function runSupervision(deps: EngineDeps, input: SupervisionInput): Promise<SupervisionOutcome> {
  const items = selectKnowledge(input.knowledge ?? [], input.brief, deps.config.knowledgeBudgetTokens);
  const ctx: RoundContext = { deps, input, knowledge: knowledgeBlock(items), startedAt: deps.clock.now() };
  let { round, code } = await resumePoint(deps);
  while (!code) {
    throwIfAborted(deps.signal);
    const result = round === 0 ? await roundZero(ctx) : await followUpRound(ctx, round);
    if (result.decision === "stop") code = result.code ?? "max_rounds";
    round++;
  }
  // Directives still pending (added during the last round) have missed their chance.
  await skipLeftovers(deps);
  return outcome(ctx, code);
}

/** The next round to run, or the stop code when the history already ends in a stop. */
async function resumePoint(deps: EngineDeps): Promise<{ round: number; code?: StopCode }> {
  const history = await deps.store.listRounds();
  const finished = history.find((r) => r.decision === "stop");
  const decided = history.filter((r) => r.decision !== null).map((r) => r.round);
  return {
    round: decided.length ? Math.max(...decided) + 1 : 0,
    code: finished ? codeOf(finished.reason) : undefined,
  };
}

async function outcome(ctx: RoundContext, code: StopCode): Promise<SupervisionOutcome> {
  const ended = ctx.lastRead;
  if (ended) {
    const { report: _, origins: __, rounds, ...gathered } = ended;
    return { rounds: rounds.length, stopReason: code, directives: ended.directives, gathered };
  }
  const [rounds, directives] = await Promise.all([
    ctx.deps.store.listRounds(),
    ctx.deps.store.listDirectives(),
  ]);
  return { rounds: rounds.length, stopReason: code, directives };
}

/** Round 0: the decomposition (planned now, or before plan review), then its research. */
async function roundZero(ctx: RoundContext): Promise<Decision> {
  const { deps, input } = ctx;
  await announceRound(deps, 0);
  const { record, directives } = await firstRoundPlan(deps, input);
  return researchAndDecide(ctx, record, roundZeroRule(deps.config), directives);
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
  const coverage = await loadCoverage(deps);
  const planned = coverage.directives.filter(
    (d) => d.origin === "supervisor" && d.round === 0 && d.type !== "inherited",
  );
  let generated = planned.length;
  let assessment: Record<string, unknown> = { resumed: true, finalCount: planned.length };
  // Directives stored but no checkpoint: the worker died in between, so the plan stands.
  if (!planned.length) {
    const items = selectKnowledge(input.knowledge ?? [], input.brief, deps.config.knowledgeBudgetTokens);
    const prior = priorResearchBlock(priorFindingsOf(coverage));
    const plan = await planRoundZero(deps, { brief: input.brief, knowledge: knowledgeBlock(items), prior });
    generated = plan.created.length;
    assessment = plan.record;
  }
  let directives = await deps.store.listDirectives();
  // Inherited directives are the parent's research, not this run's plan: they do not count.
  if (!directives.some((d) => d.status !== "skipped" && d.type !== "inherited")) {
    generated += await addBriefDirective(deps, input.brief);
    directives = await deps.store.listDirectives();
  }
  const fields = {
    round: 0,
    method: "decomposition",
    directivesGenerated: generated,
    think: null,
    assessment,
  };
  const record = plannedRecord(fields, coverage.report);
  // A run that stops before this lands keeps its stored plan (see above).
  await deps.store.saveRound(record);
  return { record, directives };
}

/** A "research deeper" run's inherited directives with their findings, for round 0's plan. */
function priorFindingsOf(coverage: LoadedCoverage): PriorFinding[] {
  const findings = new Map(coverage.results.map((r) => [r.directiveId, r.compressedFindings ?? r.rawNotes]));
  return coverage.directives
    .filter((d) => d.type === "inherited")
    .map((d) => ({ topic: d.topic, findings: findings.get(d.id) ?? "" }))
    .filter((p) => p.findings.trim());
}

/** When every proposed directive was refused (e.g. duplicates of user ones) and nothing is queued. */
async function addBriefDirective(deps: EngineDeps, brief: string): Promise<number> {
  const { created } = await deps.store.addDirectives([{ round: 0, topic: brief, origin: "supervisor" }]);
  await announceDirectives(deps, created);
  return created.length;
}

/**
 * Round k ≥ 1: think → assess → delegate follow-ups (planned now, or found saved by a resumed
 * run), then their research; a plan that leaves nothing to research stops the round at once.
 */
async function followUpRound(ctx: RoundContext, round: number): Promise<Decision> {
  const { deps } = ctx;
  const previous = ctx.lastRead;
  ctx.lastRead = undefined;
  await announceRound(deps, round, previous?.directives);
  // Only a resumed run finds its round planned: one that follows a round decided now cannot be.
  const saved = previous ? undefined : await savedRound(deps, round);
  if (saved) return researchAndDecide(ctx, saved, followUpRule(deps.config, saved));
  const { record, directives, stopsNow } = await planFollowUp(ctx, round, previous);
  if (stopsNow) return stopUnresearched(ctx, record, stopsNow, previous && { ...previous, directives });
  await deps.store.saveRound(record);
  return researchAndDecide(ctx, record, followUpRule(deps.config, record), directives);
}

async function announceRound(deps: EngineDeps, round: number, directives?: readonly DirectiveRecord[]) {
  const pending = (directives ?? (await deps.store.listDirectives())).filter(isRunnable).length;
  await deps.events.emit({ type: "supervision.round_started", round, pending });
}

async function savedRound(deps: EngineDeps, round: number): Promise<SupervisionRoundRecord | undefined> {
  return (await deps.store.listRounds()).find((r) => r.round === round && r.decision === null);
}

/**
 * The supervisor's plan for the round, as its undecided record; `stopsNow` when the plan decided
 * to stop and nothing is queued to research. Coverage and memory come from what the round before
 * read when it ended in this attempt, else from the store.
 */
async function planFollowUp(ctx: RoundContext, round: number, previous?: RoundEnd) {
  const { deps, input } = ctx;
  const coverage = previous ?? (await loadCoverage(deps));
  const plan = await planFollowUpRound(deps, {
    brief: input.brief,
    round,
    knowledge: ctx.knowledge,
    coverage: coverage.report,
    origins: coverage.origins,
    memory: previous && memoryEntriesOf(previous),
  });
  const directives = await deps.store.listDirectives();
  const runnable = executionOrder(directives).length > 0;
  const noneLeft = plan.noFollowUps ?? {
    reason: "nothing is left to research",
    because: because("round_nothing_left"),
  };
  const planned = plan.stop
    ? stop(plan.stop.code, plan.stop.reason, plan.stop.because)
    : runnable
      ? undefined
      : stop("no_new_directives", noneLeft.reason, noneLeft.because);
  // The planned stop's code beside its English reason: the round's decision says it after research.
  const stopped = planned && { plannedStop: planned.reason, plannedStopBecause: planned.because };
  const assessment = { ...plan.assessment, ...stopped };
  const fields = { round, method: "coverage", directivesGenerated: plan.generated.length, think: plan.think };
  const record = plannedRecord({ ...fields, assessment }, coverage.report);
  return { record, directives, stopsNow: runnable ? undefined : planned };
}

/** A round whose plan stops with nothing to research: decided and saved without research. */
async function stopUnresearched(
  ctx: RoundContext,
  record: SupervisionRoundRecord,
  planned: Decision,
  previous?: RoundEnd,
): Promise<Decision> {
  const final = {
    ...record,
    coverageAfter: record.coverageBefore,
    decision: "stop" as const,
    reason: planned.reason,
    because: planned.because ?? null,
  };
  await saveDecision(ctx.deps, final);
  // Nothing was researched since the round before read the run: the report can start from that.
  if (previous) ctx.lastRead = { ...previous, rounds: withRound(previous.rounds, final) };
  return planned;
}

/**
 * Researches the round's runnable directives, measures coverage, decides (roundRule first, then
 * the rules every round has) and saves the decided round. `directives` is the run's list when the
 * caller read it just before (after the round's plan).
 */
async function researchAndDecide(
  ctx: RoundContext,
  record: SupervisionRoundRecord,
  rule: RoundRule,
  directives?: readonly DirectiveRecord[],
): Promise<Decision> {
  const { deps } = ctx;
  const aged = await ageOutLowUserDirectives(deps, record.round, directives);
  const queue = directives?.filter((d) => !aged.has(d.id));
  const researched = await executeRunnable(deps, ctx.input.executeDirective, queue);
  const [after, stored] = await Promise.all([loadCoverage(deps, researched), deps.store.listRounds()]);
  const { executed, newSources } = roundYield(record, after.report);
  const elapsedMs = deps.clock.now() - ctx.startedAt;
  const decision = decideRound(
    deps.config,
    { round: record.round, rule, executed, newSources, elapsedMs },
    after.report,
  );
  const decided: DecidedRound = {
    ...record,
    directivesExecuted: executed,
    newSources: Math.max(0, newSources),
    coverageAfter: coverageRecord(after.report),
    decision: decision.decision,
    reason: decision.reason,
    because: decision.because ?? null,
  };
  // A run that stops before this lands decides the round again on resume.
  await saveDecision(deps, decided);
  ctx.lastRead = { ...after, rounds: withRound(stored, decided) };
  return decision;
}

/** A round's record with its decision. */
type DecidedRound = SupervisionRoundRecord & { decision: RoundDecision; reason: string };

async function saveDecision(deps: EngineDeps, decided: DecidedRound): Promise<void> {
  await deps.store.saveRound(decided);
  await deps.events.emit({
    type: "supervision.round_completed",
    round: decided.round,
    decision: decided.decision,
    reason: decided.reason,
    ...(decided.because ? { because: decided.because } : {}),
    record: decided,
  });
}
