/**
 * The orchestrator: one run from wherever it stands to exactly one terminal state. Each phase is
 * skipped when its result is already stored, so a job that restarts (worker killed, server
 * restarted) continues at the first unfinished step instead of starting over. Phases are passed in
 * (see phases/index.ts for the real wiring) so this driver reads as the pipeline and nothing else.
 */

import { BudgetExceededError } from "../ai/usage.ts";
import { log } from "../telemetry/log.ts";
import { directiveScope, phaseScope } from "../telemetry/scopes.ts";
import {
  type AttemptState,
  beginAttempt,
  finishPhase,
  flushEvents,
  isDone,
  settle,
  startPhase,
  writeStatus,
} from "./attempt.ts";
import { because, type RunFailureCode, type Why } from "./because.ts";
import { STATE_VERSION } from "./checkpoint.ts";
import type { EngineDeps } from "./deps.ts";
import { isQuotaExceeded, PhaseTimeoutError, type RunAbortReason, runAbortReason } from "./errors.ts";
import { withPhaseTimeout } from "./phase-timeout.ts";
import { createKnownSources } from "./phases/directive/known-sources.ts";
import { readableUrlsOf } from "./phases/directive/readable-urls.ts";
import type { ResearcherContext } from "./phases/directive/researcher.ts";
import { createSeenUrls } from "./phases/directive/seen-urls.ts";
import { leftoversOf, skipLeftovers } from "./phases/supervision/execution.ts";
import type { GatheredResearch } from "./phases/supervision/supervise.ts";
import type { Phases, RunOutcome } from "./phases-contract.ts";
import { reportBody } from "./report/parts.ts";
import type { KnowledgeItemRecord, ResearcherResultRecord, RunSnapshot } from "./store.ts";
import { withWritesBehind } from "./writes-behind.ts";

export { PhaseTimeoutError, type RunAbortReason } from "./errors.ts";

/** One attempt at a run, with the phases it runs. */
interface Attempt extends AttemptState {
  phases: Phases;
  /** The research as supervision's last round read it, when that round ended in this attempt. */
  gathered?: GatheredResearch;
}

/**
 * Runs (or resumes) the run to one outcome. `known` is the run row when the caller has just read
 * it (the worker does, for the run's settings), so the engine does not read it again.
 */
export async function runResearch(
  engineDeps: EngineDeps,
  phases: Phases,
  known?: RunSnapshot,
): Promise<RunOutcome> {
  const deps = withWritesBehind(engineDeps);
  try {
    return await runAttempt(deps, phases, known);
  } finally {
    // An outcome returned with writes still deferred (a pause, a shutdown) waits for them.
    await deps.behind
      ?.flush()
      .catch((e) => log("engine").warn({ err: e }, "a deferred write failed after the attempt's outcome"));
  }
}

async function runAttempt(deps: EngineDeps, phases: Phases, known?: RunSnapshot): Promise<RunOutcome> {
  const snapshot = known ?? (await deps.store.getRun());
  const finished = alreadyFinished(snapshot.status);
  if (finished) return finished;
  const attempt: Attempt = Object.assign(await beginAttempt(deps, snapshot), { phases });
  const checkAbort = () => deps.signal.throwIfAborted();
  let partial: boolean;
  try {
    const awaitingAnswer = await runClarification(attempt, snapshot);
    if (awaitingAnswer) return awaitingAnswer;
    checkAbort();
    const brief = await runBrief(attempt);
    checkAbort();
    const awaitingReview = await runSupervisionPhase(attempt, brief);
    if (awaitingReview) return awaitingReview;
    checkAbort();
    partial = await runSynthesis(attempt, brief);
    checkAbort();
    await runKnowledge(attempt);
  } catch (error) {
    // A finished phase's event waiting for the next status change comes before the run's end.
    await settle(attempt).catch((e) =>
      log("engine").warn({ err: e }, "could not write the pending checkpoint"),
    );
    return endAfterError(deps, phases, error);
  }
  // Outside the catch: a run whose end cannot be written is not thereby failed. The error goes up,
  // the job is retried, and the retry (every phase done) ends it.
  return completeRun(attempt, partial);
}

/** A duplicate delivery of a finished run's job (or a run cancelled while queued): nothing to do or emit. */
function alreadyFinished(status: RunSnapshot["status"]): RunOutcome | undefined {
  if (status === "completed") return { status: "completed", partial: false };
  if (status === "cancelled") return { status: "cancelled" };
  if (status === "failed") return { status: "failed", reason: "the run had already failed", partial: false };
  return undefined;
}

/** Established knowledge of the run's owner steers the brief and the supervisor (each trims to its budget). */
async function knowledge(a: Attempt): Promise<KnowledgeItemRecord[]> {
  a.knowledgeItems ??= await a.deps.store.listEstablishedKnowledge(50);
  return a.knowledgeItems;
}

/** Asks the clarifying question (and waits for its answer) when clarification is on. */
async function runClarification(a: Attempt, snapshot: RunSnapshot): Promise<RunOutcome | undefined> {
  const { store, events } = a.deps;
  if (!a.deps.config.clarification || isDone(a, "clarification")) return undefined;
  if (!snapshot.clarificationQuestion) {
    const t = await startPhase(a, "clarification");
    const c = await withPhaseTimeout(a.deps, "clarification", (d) =>
      a.phases.clarify(d, { question: a.question }),
    );
    if (c.needed && c.question) {
      // Question and status in one write, before the event: a reader of the event finds the form.
      await store.askClarification(c.question);
      await events.emit({ type: "clarification.requested", question: c.question });
      return { status: "awaiting_clarification", question: c.question };
    }
    await finishPhase(a, "clarification", t);
  } else if (!snapshot.clarificationAnswer) {
    await flushEvents(a);
    await writeStatus(a, { status: "awaiting_clarification", phase: "clarification" });
    return { status: "awaiting_clarification", question: snapshot.clarificationQuestion };
  } else {
    await finishPhase(a, "clarification", a.deps.clock.now());
  }
  return undefined;
}

/**
 * Writes the research brief unless it is stored; returns it (the question when there is none).
 * The attempt's snapshot has the stored brief and the clarification; a brief written now is
 * what writeBrief returns (and stored), so the run row is not read again.
 */
async function runBrief(a: Attempt): Promise<string> {
  const { snapshot } = a;
  if (!isDone(a, "brief")) {
    const t = await startPhase(a, "brief");
    if (!snapshot.brief) {
      const items = await knowledge(a);
      snapshot.brief = await withPhaseTimeout(a.deps, "brief", (d) =>
        a.phases.writeBrief(d, {
          question: a.question,
          clarificationQuestion: snapshot.clarificationQuestion ?? undefined,
          clarificationAnswer: snapshot.clarificationAnswer ?? undefined,
          knowledge: items,
        }),
      );
    }
    await finishPhase(a, "brief", t);
  }
  return snapshot.brief ?? a.question;
}

/** The supervisor's rounds, each directive researched by a researcher; or, under plan review, round 0 shown and awaited. */
async function runSupervisionPhase(a: Attempt, brief: string): Promise<RunOutcome | undefined> {
  if (isDone(a, "supervision")) return undefined;
  const t = await startPhase(a, "supervision");
  if (a.deps.config.planReview && !a.checkpoint.planApproved) return proposePlan(a, brief);
  // Pages read before a restart are not fetched again: the run's stored snapshots seed the set.
  // What may be read is rebuilt from the store too, so a resumed run follows the same rule.
  const [sources, links] = await Promise.all([a.deps.store.listSources(), a.deps.store.listPageLinks()]);
  const fetched = sources.filter((s) => s.content).map((s) => s.normalizedUrl);
  const readableUrls = readableUrlsOf(a.snapshot, sources, links);
  const ctx: ResearcherContext = {
    brief,
    seenUrls: createSeenUrls(fetched),
    readableUrls,
    knownSources: createKnownSources(sources.map((s) => s.normalizedUrl)),
  };
  const items = await knowledge(a);
  const gather = a.deps.gatherSignal;
  // Research runs under the run's signal and the owner's "report now" signal; only the latter is survivable.
  const deps = gather ? { ...a.deps, signal: AbortSignal.any([a.deps.signal, gather]) } : a.deps;
  try {
    if (!a.checkpoint.gatheringStopped) gather?.throwIfAborted();
    if (!a.checkpoint.gatheringStopped) {
      const outcome = await withPhaseTimeout(deps, "supervision", (d) =>
        a.phases.runSupervision(d, {
          brief,
          executeDirective: (directive) =>
            directiveScope(directive, () => a.phases.executeDirective(d, directive, ctx)),
          knowledge: items,
        }),
      );
      a.gathered = outcome.gathered;
    }
  } catch (error) {
    if (a.deps.signal.aborted || !gather?.aborted) throw error;
    await stopGathering(a);
  }
  await finishPhase(a, "supervision", t);
  return undefined;
}

/**
 * The owner asked for the report now: what is still open is skipped (no directive keeps reading
 * "running"), the stop is recorded in the checkpoint, so a resumed run does not research again
 * and still writes the report as partial.
 */
async function stopGathering(a: Attempt): Promise<void> {
  const { store, events } = a.deps;
  await skipLeftovers(a.deps, leftoversOf.finishedEarly, { includeRunning: true });
  a.checkpoint.gatheringStopped = true;
  await store.saveCheckpoint({ ...a.checkpoint }, STATE_VERSION);
  const researched = (await store.listResearcherResults()).length;
  await events.emit({
    type: "supervision.stopped_early",
    reason: "the owner asked for the report now",
    researched,
  });
}

/** Plan review: show round 0's directives and wait; the API approves (or edits) and re-enqueues. */
async function proposePlan(a: Attempt, brief: string): Promise<RunOutcome> {
  const { store, events } = a.deps;
  const items = await knowledge(a);
  await withPhaseTimeout(a.deps, "supervision", (d) =>
    a.phases.planFirstRound(d, { brief, knowledge: items }),
  );
  a.checkpoint.planProposed = true;
  a.checkpointDirty = true;
  const pending = (await store.listDirectives()).filter((d) => d.status === "pending").length;
  // The proposal's checkpoint and the status in one write: a plan awaiting review is a proposed one.
  await writeStatus(a, { status: "awaiting_plan_review", phase: "supervision" });
  await events.emit({ type: "plan.awaiting_review", directives: pending });
  return { status: "awaiting_plan_review", directives: pending };
}

/** Writes the report unless one is stored; returns whether it is partial. */
async function runSynthesis(a: Attempt, brief: string): Promise<boolean> {
  const { store } = a.deps;
  if (isDone(a, "synthesis")) return (await store.getReport())?.partial ?? false;
  if (a.gathered) return writeFreshReport(a, brief, a.gathered);
  const t = await startPhase(a, "synthesis");
  // A directive added while supervision was ending has missed its chance; steering is refused from here on.
  await skipLeftovers(a.deps);
  let partial: boolean;
  const existing = await store.getReport();
  if (existing) partial = existing.partial;
  else {
    const g = await gathered(a.deps);
    const input = { question: a.question, brief, ...g, writtenEarly: a.checkpoint.gatheringStopped === true };
    partial = (await withPhaseTimeout(a.deps, "synthesis", (d) => a.phases.writeReport(d, input))).partial;
  }
  await finishPhase(a, "synthesis", t);
  return partial;
}

/**
 * The report right after research that ended in this attempt. No report can be stored yet (one
 * is only written once supervision is marked done, or when a run fails), so none is read; the
 * report is written from what the last round read, and the phase's start and the skipping of
 * directives left pending are written while the report's model call is out.
 */
async function writeFreshReport(a: Attempt, brief: string, gathered: GatheredResearch): Promise<boolean> {
  const t = await startPhase(a, "synthesis", { behind: true });
  // A directive added while supervision was ending has missed its chance; steering is refused from here on.
  await skipLeftovers(a.deps);
  const input = {
    question: a.question,
    brief,
    directives: gathered.directives,
    findings: findingsOf(gathered.results),
    sources: gathered.sources,
    directiveSources: gathered.sourcesByDirective,
  };
  const { partial } = await withPhaseTimeout(a.deps, "synthesis", (d) => a.phases.writeReport(d, input));
  await finishPhase(a, "synthesis", t);
  return partial;
}

/** Knowledge is a by-product: its failure is recorded by the phase and never fails the run. */
async function runKnowledge(a: Attempt): Promise<void> {
  if (isDone(a, "knowledge")) return;
  const { store } = a.deps;
  const t = await startPhase(a, "knowledge");
  // Read once for the phase and the run's end: nothing after the report adds sources or changes it.
  const [report, sources] = await Promise.all([store.getReport(), store.listSources()]);
  a.ending = { report, sources: sources.length };
  if (report)
    await phaseScope("knowledge", async () =>
      a.phases.extractKnowledge(a.deps, { question: a.question, report: report.markdown, sources }),
    );
  await finishPhase(a, "knowledge", t);
}

/** The run's status and its terminal event in one write (store.finishRun), after the events held. */
async function completeRun(a: Attempt, partial: boolean): Promise<RunOutcome> {
  const { store } = a.deps;
  await settle(a);
  const ending = a.ending ?? {
    report: await store.getReport(),
    sources: (await store.listSources()).length,
  };
  const citations = countCitations(ending.report?.markdown ?? "");
  await store.finishRun({ type: "run.completed", sources: ending.sources, citations, partial });
  return { status: "completed", partial };
}

async function endAfterError(deps: EngineDeps, phases: Phases, error: unknown): Promise<RunOutcome> {
  const reason = runAbortReason(deps.signal);
  if (reason?.kind === "shutdown") return { status: "interrupted" };
  if (reason?.kind === "cancelled") {
    await skipLeftovers(deps, leftoversOf.cancelled, { includeRunning: true });
    const byOwner = reason.by === "the user" ? { because: because("cancelled_by_user") } : {};
    await deps.store.finishRun({ type: "run.cancelled", reason: `cancelled by ${reason.by}`, ...byOwner });
    return { status: "cancelled" };
  }
  const failure = failureOf(reason, error);
  const partial = await tryPartialReport(deps, phases, failure);
  await deps.store.finishRun({
    type: "run.failed",
    reason: failure.reason,
    because: failure.because,
    partial,
  });
  return { status: "failed", reason: failure.reason, partial };
}

type RunFailure = Why<RunFailureCode>;

/** Why the run failed: a sentence for the API and the same as a code for every reader's language. */
function failureOf(abort: RunAbortReason | undefined, error: unknown): RunFailure {
  const said = error instanceof Error ? error.message : String(error);
  if (abort?.kind === "timeout") {
    const seconds = Math.round(abort.limitMs / 1000);
    return {
      reason: `The run exceeded its time limit of ${seconds} s.`,
      because: because("run_time_limit", { seconds }),
    };
  }
  if (error instanceof PhaseTimeoutError) {
    const values = { phase: error.phase, seconds: Math.round(error.limitMs / 1000) };
    return { reason: error.message, because: because("phase_time_limit", values) };
  }
  if (error instanceof BudgetExceededError) {
    return {
      reason: `The run's budget was exhausted: ${said}`,
      because: because("budget_exhausted", { said }),
    };
  }
  if (isQuotaExceeded(error)) {
    return {
      reason: `The run stopped storing page text: ${said}`,
      because: because("storage_quota", { said }),
    };
  }
  return { reason: `The run failed: ${said}`, because: because("run_error", { said }) };
}

/** Whatever was gathered becomes a marked partial report, unless a report already exists. */
async function tryPartialReport(deps: EngineDeps, phases: Phases, failure: RunFailure): Promise<boolean> {
  try {
    const existing = await deps.store.getReport();
    if (existing) return existing.partial;
    const snapshot = await deps.store.getRun();
    const g = await gathered(deps);
    if (!g.findings.length) return false;
    const written = await phases.writePartialReport(deps, { question: snapshot.question, ...failure, ...g });
    return Boolean(written);
  } catch (e) {
    log("engine").error({ err: e }, "could not write a partial report");
    return false;
  }
}

async function gathered(deps: EngineDeps) {
  const [directives, results, sources] = await Promise.all([
    deps.store.listDirectives(),
    deps.store.listResearcherResults(),
    deps.store.listSources(),
  ]);
  return { directives, findings: findingsOf(results), sources };
}

/** Each researched directive's findings: compressed, or its raw notes when compression failed. */
function findingsOf(results: readonly ResearcherResultRecord[]) {
  return results
    .filter((r) => r.compressedFindings || r.rawNotes)
    .map((r) => ({ directiveId: r.directiveId, findings: (r.compressedFindings ?? r.rawNotes) as string }));
}

function countCitations(markdown: string): number {
  const body = reportBody(markdown);
  return new Set([...body.matchAll(/\[(\d+)\]/g)].map((m) => m[1])).size;
}
