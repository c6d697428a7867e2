/**
 * The orchestrator: one run from wherever it stands to exactly one terminal state. Each phase is
 * skipped when its result is already stored, so a job that restarts (worker killed, server
 * restarted) continues at the first unfinished step instead of starting over. Phases are passed in
 * (see phases/index.ts for the real wiring) so this driver reads as the pipeline and nothing else.
 */

import { BudgetExceededError } from "../ai/usage.ts";
import type { EngineDeps } from "./deps.ts";
import { PhaseTimeoutError, runAbortReason } from "./errors.ts";
import type { DirectiveOutcome } from "./phases/directive/execute.ts";
import type { ResearcherContext } from "./phases/directive/researcher.ts";
import { createSeenUrls } from "./phases/directive/seen-urls.ts";
import type { ExecuteDirective } from "./phases/supervision/execution.ts";
import type { DirectiveRecord, KnowledgeItemRecord, SourceRecord } from "./store.ts";
import type { RunPhase } from "./vocabulary.ts";

export { PhaseTimeoutError, type RunAbortReason } from "./errors.ts";

/** Shape version of runs.checkpoint written by this code. Bump it with a migration in migrateCheckpoint. */
export const STATE_VERSION = 2;

export interface RunCheckpoint {
  /** Phases finished; a finished phase is never run again. */
  done: RunPhase[];
  attempts: number;
  /** Plan review: round 0 was planned and shown; a person approved it (set by the API). */
  planProposed?: boolean;
  planApproved?: boolean;
}

export interface Phases {
  clarify(deps: EngineDeps, input: { question: string }): Promise<{ needed: boolean; question?: string }>;
  writeBrief(
    deps: EngineDeps,
    input: {
      question: string;
      clarificationQuestion?: string;
      clarificationAnswer?: string;
      knowledge: KnowledgeItemRecord[];
    },
  ): Promise<string>;
  runSupervision(
    deps: EngineDeps,
    input: {
      brief: string;
      executeDirective: ExecuteDirective;
      knowledge: KnowledgeItemRecord[];
    },
  ): Promise<{ rounds: number; stopReason: string }>;
  /** Round 0 only (plan, critique, revise), stored without executing: what plan review shows. */
  planFirstRound(
    deps: EngineDeps,
    input: { brief: string; knowledge: KnowledgeItemRecord[] },
  ): Promise<unknown>;
  executeDirective(
    deps: EngineDeps,
    directive: DirectiveRecord,
    ctx: ResearcherContext,
  ): Promise<DirectiveOutcome>;
  writeReport(
    deps: EngineDeps,
    input: {
      question: string;
      brief: string;
      directives: DirectiveRecord[];
      findings: { directiveId: string; findings: string }[];
      sources: SourceRecord[];
    },
  ): Promise<{ markdown: string; partial: boolean }>;
  /** A report from what was gathered, written without a model; used when the run cannot finish. */
  writePartialReport(
    deps: EngineDeps,
    input: {
      question: string;
      reason: string;
      directives: DirectiveRecord[];
      findings: { directiveId: string; findings: string }[];
      sources: SourceRecord[];
    },
  ): Promise<{ markdown: string } | undefined>;
  extractKnowledge(
    deps: EngineDeps,
    input: { question: string; report: string; sources: SourceRecord[] },
  ): Promise<number>;
}

export type RunOutcome =
  | { status: "completed"; partial: boolean }
  | { status: "failed"; reason: string; partial: boolean }
  | { status: "cancelled" }
  | { status: "awaiting_clarification"; question: string }
  | { status: "awaiting_plan_review"; directives: number }
  | { status: "interrupted" };

export async function runResearch(deps: EngineDeps, phases: Phases): Promise<RunOutcome> {
  const { store, events } = deps;
  let snapshot = await store.getRun();
  // A duplicate delivery of a finished run's job (or a run cancelled while queued): nothing to do or emit.
  if (snapshot.status === "completed") return { status: "completed", partial: false };
  if (snapshot.status === "cancelled") return { status: "cancelled" };
  if (snapshot.status === "failed")
    return { status: "failed", reason: "the run had already failed", partial: false };
  const checkpoint = await loadCheckpoint(deps, snapshot.checkpoint, snapshot.stateVersion);
  checkpoint.attempts += 1;
  await store.saveCheckpoint({ ...checkpoint }, STATE_VERSION);
  if (checkpoint.attempts > 1 || snapshot.phase) {
    await events.emit({ type: "run.resumed", phase: snapshot.phase, attempt: checkpoint.attempts });
  } else {
    await events.emit({ type: "run.started", attempt: checkpoint.attempts });
  }
  await store.setStatus({ status: "running" });

  const finishPhase = async (phase: RunPhase, started: number) => {
    checkpoint.done.push(phase);
    await store.saveCheckpoint({ ...checkpoint }, STATE_VERSION);
    await events.emit({ type: "phase.completed", phase, durationMs: deps.clock.now() - started });
  };
  const startPhase = async (phase: RunPhase) => {
    await store.setStatus({ status: "running", phase });
    await events.emit({ type: "phase.started", phase });
    return deps.clock.now();
  };
  const isDone = (phase: RunPhase) => checkpoint.done.includes(phase);
  const timed = <T>(phase: RunPhase, fn: (d: EngineDeps) => Promise<T>) => withPhaseTimeout(deps, phase, fn);
  // Established knowledge of the run's owner steers the brief and the supervisor (each trims to its budget).
  let knowledgeItems: KnowledgeItemRecord[] | undefined;
  const knowledge = async () => {
    knowledgeItems ??= await store.listEstablishedKnowledge(50);
    return knowledgeItems;
  };
  const checkAbort = () => deps.signal.throwIfAborted();

  try {
    const { question } = snapshot;

    if (deps.config.clarification && !isDone("clarification")) {
      if (!snapshot.clarificationQuestion) {
        const t = await startPhase("clarification");
        const c = await timed("clarification", (d) => phases.clarify(d, { question }));
        if (c.needed && c.question) {
          // Question and status in one write, before the event: a reader of the event finds the form.
          await store.askClarification(c.question);
          await events.emit({ type: "clarification.requested", question: c.question });
          return { status: "awaiting_clarification", question: c.question };
        }
        await finishPhase("clarification", t);
      } else if (!snapshot.clarificationAnswer) {
        await store.setStatus({ status: "awaiting_clarification", phase: "clarification" });
        return { status: "awaiting_clarification", question: snapshot.clarificationQuestion };
      } else {
        await finishPhase("clarification", deps.clock.now());
      }
    }
    checkAbort();

    if (!isDone("brief")) {
      const t = await startPhase("brief");
      snapshot = await store.getRun();
      if (!snapshot.brief) {
        const items = await knowledge();
        await timed("brief", (d) =>
          phases.writeBrief(d, {
            question,
            clarificationQuestion: snapshot.clarificationQuestion ?? undefined,
            clarificationAnswer: snapshot.clarificationAnswer ?? undefined,
            knowledge: items,
          }),
        );
      }
      await finishPhase("brief", t);
    }
    snapshot = await store.getRun();
    const brief = snapshot.brief ?? question;
    checkAbort();

    if (!isDone("supervision")) {
      const t = await startPhase("supervision");
      if (deps.config.planReview && !checkpoint.planApproved) {
        // Plan review: show round 0's directives and wait; the API approves (or edits) and re-enqueues.
        const items = await knowledge();
        await timed("supervision", (d) => phases.planFirstRound(d, { brief, knowledge: items }));
        checkpoint.planProposed = true;
        await store.saveCheckpoint({ ...checkpoint }, STATE_VERSION);
        const pending = (await store.listDirectives()).filter((d) => d.status === "pending").length;
        await store.setStatus({ status: "awaiting_plan_review", phase: "supervision" });
        await events.emit({ type: "plan.awaiting_review", directives: pending });
        return { status: "awaiting_plan_review", directives: pending };
      }
      // Pages read before a restart are not fetched again: the run's stored snapshots seed the set.
      const fetched = (await store.listSources()).filter((s) => s.content).map((s) => s.normalizedUrl);
      const ctx: ResearcherContext = { brief, seenUrls: createSeenUrls(fetched) };
      const items = await knowledge();
      await timed("supervision", (d) =>
        phases.runSupervision(d, {
          brief,
          executeDirective: (directive) => phases.executeDirective(d, directive, ctx),
          knowledge: items,
        }),
      );
      await finishPhase("supervision", t);
    }
    checkAbort();

    let partial = false;
    if (!isDone("synthesis")) {
      const t = await startPhase("synthesis");
      const existing = await store.getReport();
      if (existing) partial = existing.partial;
      else {
        const g = await gathered(deps);
        partial = (await timed("synthesis", (d) => phases.writeReport(d, { question, brief, ...g }))).partial;
      }
      await finishPhase("synthesis", t);
    } else {
      partial = (await store.getReport())?.partial ?? false;
    }
    checkAbort();

    if (!isDone("knowledge")) {
      const t = await startPhase("knowledge");
      const report = await store.getReport();
      // Knowledge is a by-product: its failure is recorded by the phase and never fails the run.
      if (report)
        await phases.extractKnowledge(deps, {
          question,
          report: report.markdown,
          sources: await store.listSources(),
        });
      await finishPhase("knowledge", t);
    }

    await store.setStatus({ status: "completed", phase: "done", error: null });
    const sources = (await store.listSources()).length;
    const citations = countCitations((await store.getReport())?.markdown ?? "");
    await events.emit({ type: "run.completed", sources, citations, partial });
    return { status: "completed", partial };
  } catch (error) {
    return endAfterError(deps, phases, error);
  }
}

async function endAfterError(deps: EngineDeps, phases: Phases, error: unknown): Promise<RunOutcome> {
  const reason = runAbortReason(deps.signal);
  if (reason?.kind === "shutdown") return { status: "interrupted" };
  if (reason?.kind === "cancelled") {
    await deps.store.setStatus({ status: "cancelled", error: null });
    await deps.events.emit({ type: "run.cancelled", reason: `cancelled by ${reason.by}` });
    return { status: "cancelled" };
  }
  const message =
    reason?.kind === "timeout"
      ? `The run exceeded its time limit of ${Math.round(reason.limitMs / 1000)} s.`
      : error instanceof PhaseTimeoutError
        ? error.message
        : error instanceof BudgetExceededError
          ? `The run's budget was exhausted: ${error.message}`
          : `The run failed: ${error instanceof Error ? error.message : String(error)}`;
  const partial = await tryPartialReport(deps, phases, message);
  await deps.store.setStatus({ status: "failed", error: message });
  await deps.events.emit({ type: "run.failed", reason: message, partial });
  return { status: "failed", reason: message, partial };
}

/** Whatever was gathered becomes a marked partial report, unless a report already exists. */
async function tryPartialReport(deps: EngineDeps, phases: Phases, reason: string): Promise<boolean> {
  try {
    const existing = await deps.store.getReport();
    if (existing) return existing.partial;
    const snapshot = await deps.store.getRun();
    const g = await gathered(deps);
    if (!g.findings.length) return false;
    const written = await phases.writePartialReport(deps, { question: snapshot.question, reason, ...g });
    return Boolean(written);
  } catch (e) {
    console.error("[deep-research] could not write a partial report:", e);
    return false;
  }
}

/**
 * Runs one phase under its own wall-clock limit: past it, the phase's signal aborts its in-flight
 * calls and the phase ends with a PhaseTimeoutError (the run's own signal is left alone).
 */
async function withPhaseTimeout<T>(
  deps: EngineDeps,
  phase: RunPhase,
  fn: (d: EngineDeps) => Promise<T>,
): Promise<T> {
  const limitMs = deps.config.phaseTimeoutMs;
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new PhaseTimeoutError(phase, limitMs)), limitMs);
  try {
    return await fn({ ...deps, signal: AbortSignal.any([deps.signal, timer.signal]) });
  } catch (e) {
    if (timer.signal.aborted && !deps.signal.aborted) throw timer.signal.reason as PhaseTimeoutError;
    throw e;
  } finally {
    clearTimeout(handle);
  }
}

async function gathered(deps: EngineDeps) {
  const [directives, results, sources] = await Promise.all([
    deps.store.listDirectives(),
    deps.store.listResearcherResults(),
    deps.store.listSources(),
  ]);
  const findings = results
    .filter((r) => r.compressedFindings || r.rawNotes)
    .map((r) => ({ directiveId: r.directiveId, findings: (r.compressedFindings ?? r.rawNotes) as string }));
  return { directives, findings, sources };
}

function countCitations(markdown: string): number {
  const body = markdown.split(/^## Sources\s*$/m)[0] ?? "";
  return new Set([...body.matchAll(/\[(\d+)\]/g)].map((m) => m[1])).size;
}

/**
 * Reads the stored checkpoint, migrating older shapes explicitly. Version 1 (the first engine)
 * stored only the current phase; its finished phases are the ones before it in pipeline order.
 */
export async function loadCheckpoint(
  deps: EngineDeps,
  raw: Record<string, unknown> | null,
  version: number,
): Promise<RunCheckpoint> {
  if (!raw) return { done: [], attempts: 0 };
  if (version === STATE_VERSION) {
    return {
      done: (raw.done as RunPhase[]) ?? [],
      attempts: Number(raw.attempts ?? 0),
      planProposed: raw.planProposed === true,
      planApproved: raw.planApproved === true,
    };
  }
  if (version === 1) {
    const order: RunPhase[] = ["clarification", "brief", "supervision", "synthesis", "knowledge"];
    const current = raw.phase as RunPhase | undefined;
    const idx = current ? order.indexOf(current) : -1;
    const done = idx > 0 ? order.slice(0, idx) : [];
    await deps.events.emit({
      type: "run.legacy_resume",
      fromVersion: 1,
      toVersion: STATE_VERSION,
      note: `checkpoint of state version 1 (phase ${current ?? "none"}) migrated; resuming after ${done.join(", ") || "nothing"}`,
    });
    return { done, attempts: Number(raw.attempts ?? 0) };
  }
  throw new Error(`Run state version ${version} is newer than this worker understands (${STATE_VERSION}).`);
}
