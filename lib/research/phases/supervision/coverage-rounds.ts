/**
 * Planning of a supervision round ≥ 1: the supervisor thinks (a gap analysis in prose, no
 * queries), then assesses coverage (structured) and delegates follow-ups for the gaps. Two
 * heuristic shortcuts (coverage-gaps.ts): when every researched directive is clearly covered the
 * round stops without either model call (`supervision.heuristic_sufficient`); when the assessment
 * fails or is unusable the heuristic decides: it declares coverage sufficient at the confidence
 * threshold, and otherwise names the weakest directives' measured gaps as follow-ups (bounded).
 */
import type { ModelMessage } from "ai";
import { z } from "zod";
import { isContextWindowError } from "../../../ai/context-errors.ts";
import { type Because, because } from "../../because.ts";
import { recordDegradation } from "../../degradations.ts";
import type { EngineDeps } from "../../deps.ts";
import { recoverableMessage } from "../../errors.ts";
import { share, wholeNumber, withTopics } from "../../model-output.ts";
import { formatCoverageTable } from "../../prompts/coverage.ts";
import {
  assessmentRequest,
  memoryPreamble,
  SUPERVISOR_INSTRUCTIONS,
  thinkRequest,
} from "../../prompts/supervisor.ts";
import type { DirectiveRecord } from "../../store.ts";
import { type DirectiveOrigin, directivePriorities } from "../../vocabulary.ts";
import type { CoverageReport } from "./coverage.ts";
import { clearlyCovered, heuristicFollowUps, rankGaps } from "./coverage-gaps.ts";
import { storeDirectives } from "./directives.ts";
import {
  CHARS_PER_TOKEN,
  entryChars,
  loadMemoryEntries,
  type MemoryEntry,
  memoryMessages,
  truncateMemory,
} from "./memory.ts";

export const followUpSchema = z.object({
  title: z.string(),
  topic: z.string(),
  perspective: z.string(),
  evidence_needed: z.string(),
  priority: z.enum(directivePriorities),
  gap: z.string(),
});

export const assessmentSchema = z.object({
  overall_coverage: share(),
  directive_assessments: z.array(
    z.object({
      directive: wholeNumber(),
      status: z.enum(["covered", "partial", "gap"]),
      note: z.string(),
    }),
  ),
  // A follow-up without a topic is dropped.
  follow_up_queries: z.array(followUpSchema).transform(withTopics),
  should_continue: z.boolean(),
  rationale: z.string(),
});
export type Assessment = z.infer<typeof assessmentSchema>;

/** Context-window retries of a supervisor call, each with half the memory budget of the last. */
export const MEMORY_RETRIES = 3;

export interface FollowUpRoundPlan {
  think: string | null;
  /** Stored in the round's `assessment` column. */
  assessment: Record<string, unknown>;
  generated: DirectiveRecord[];
  /** Set when the assessment already decided this is the last round. */
  stop?: { code: "coverage_sufficient"; reason: string; because: Because };
  /** Why no follow-up was created, when none was. */
  noFollowUps?: { reason: string; because: Because };
}

interface FollowUpInput {
  brief: string;
  round: number;
  knowledge: string;
  coverage: CoverageReport;
  origins: ReadonlyMap<string, DirectiveOrigin>;
  /** The supervisor's memory when the caller built it from rows in hand; absent: read from the store. */
  memory?: MemoryEntry[];
}

/** The supervisor's conversation of this round: its memory so far and the coverage table. */
interface RoundConversation {
  deps: EngineDeps;
  round: number;
  entries: MemoryEntry[];
  table: string;
  messages(kept: MemoryEntry[], request: string): ModelMessage[];
}

/** What every stored assessment carries: the heuristic's view, and why thinking failed if it did. */
type AssessmentBase = { heuristic: CoverageReport["heuristic"]; thinkError?: string };

export async function planFollowUpRound(deps: EngineDeps, input: FollowUpInput): Promise<FollowUpRoundPlan> {
  if (deps.config.heuristicGate && clearlyCovered(input.coverage.directives, deps.config)) {
    return gatePlan(deps, input);
  }
  const talk: RoundConversation = {
    deps,
    round: input.round,
    entries: input.memory ?? (await loadMemoryEntries(deps.store)),
    table: formatCoverageTable(input.coverage, input.origins),
    messages: (kept, request) => [
      { role: "user", content: memoryPreamble(input.brief, input.knowledge) },
      ...memoryMessages(kept),
      { role: "user", content: request },
    ],
  };
  const { think, thinkError } = await thinkAboutGaps(talk);
  const { llm, assessError, cause } = await assessCoverage(talk);
  const heuristic = input.coverage.heuristic;
  const base: AssessmentBase = { heuristic, ...(thinkError ? { thinkError } : {}) };
  if (!llm) {
    const round = input.round;
    await recordDegradation(deps, { step: "coverage_assessment", round, role: "supervisor", error: cause });
    return heuristicPlan(deps, round, think, base, assessError, input.coverage);
  }
  return followUpPlan(deps, input.round, think, base, llm);
}

/** The gap analysis in prose; a thought is announced and joins the memory the assessment sees. */
async function thinkAboutGaps(
  talk: RoundConversation,
): Promise<{ think: string | null; thinkError?: string }> {
  const { deps, round } = talk;
  let think: string | null = null;
  let thinkError: string | undefined;
  try {
    const r = await withMemoryBudget(deps, "supervision.think", talk.entries, (kept) =>
      deps.models.text("supervisor", {
        instructions: SUPERVISOR_INSTRUCTIONS,
        messages: talk.messages(kept, thinkRequest({ round, coverageTable: talk.table })),
        maxOutputTokens: 2000,
        abortSignal: deps.signal,
      }),
    );
    think = r.text.trim() || null;
    if (!think) thinkError = "the model returned no analysis";
  } catch (e) {
    thinkError = recoverableMessage(e, deps.signal);
  }
  if (think) {
    // Written while the assessment's model call is out.
    await deps.events.emit({ type: "supervision.think", round, text: think });
    talk.entries.push({ kind: "thought", round, text: think });
  }
  return { think, thinkError };
}

/** The structured assessment; undefined (with the reason) when the model gave none usable. */
async function assessCoverage(
  talk: RoundConversation,
): Promise<{ llm?: Assessment; assessError?: string; cause?: unknown }> {
  const { deps, round } = talk;
  const maxFollowUps = deps.config.maxFollowUpsPerRound;
  try {
    const r = await withMemoryBudget(deps, "supervision.assessment", talk.entries, (kept) =>
      deps.models.object("supervisor", {
        instructions: SUPERVISOR_INSTRUCTIONS,
        messages: talk.messages(kept, assessmentRequest({ round, coverageTable: talk.table, maxFollowUps })),
        schema: assessmentSchema,
        schemaName: "coverage_assessment",
        abortSignal: deps.signal,
      }),
    );
    return r.ok ? { llm: r.value } : { assessError: r.error.message, cause: r.error };
  } catch (e) {
    return { assessError: recoverableMessage(e, deps.signal), cause: e };
  }
}

/** Every researched directive is clearly covered: stop without asking the model (the gate). */
async function gatePlan(deps: EngineDeps, input: FollowUpInput): Promise<FollowUpRoundPlan> {
  const { heuristic, directives } = input.coverage;
  const { gateMinQualitySources: sources, gateMinDomains: domains } = deps.config;
  const researched = directives.filter((d) => d.status === "done").length;
  const reason = `every researched directive (${researched}) read ${sources}+ HIGH/MEDIUM-quality sources from ${domains}+ domains, cited by its findings; the model assessment was skipped`;
  const why = because("round_gate_covered", { directives: researched, sources, domains });
  await deps.events.emit({
    type: "supervision.heuristic_sufficient",
    round: input.round,
    directives: researched,
    confidence: heuristic.confidence,
    reason,
    because: why,
  });
  const assessment = {
    heuristic,
    method: "heuristic_gate",
    overallCoverage: heuristic.confidence,
    shouldContinue: false,
    rationale: reason,
    rationaleBecause: why,
    followUps: [],
  };
  const stop = { code: "coverage_sufficient" as const, reason, because: why };
  return { think: null, assessment, generated: [], stop };
}

/**
 * Without the model's assessment the heuristic decides: sufficient confidence stops the run;
 * otherwise the weakest directives get follow-ups named after their measured gaps (bounded by
 * `heuristicFollowUps` and the per-round cap).
 */
async function heuristicPlan(
  deps: EngineDeps,
  round: number,
  think: string | null,
  base: AssessmentBase,
  assessError: string | undefined,
  coverage: CoverageReport,
): Promise<FollowUpRoundPlan> {
  const { heuristic } = base;
  const reason = `assessment unavailable (${assessError}); heuristic confidence ${heuristic.confidence.toFixed(2)} against threshold ${deps.config.coverageThreshold}`;
  const proposed = heuristic.sufficient ? [] : await gapFollowUps(deps, coverage);
  const rationale = heuristic.sufficient
    ? `${reason}: coverage is sufficient.`
    : proposed.length
      ? `${reason}: following up the weakest directives: ${proposed.map((p) => `${p.directiveOrdinal} (${p.gaps.join("; ")})`).join(", ")}.`
      : `${reason}: coverage is not sufficient, and no directive has a measured gap to follow up.`;
  const why = heuristicBecause(heuristic, deps.config.coverageThreshold, assessError, proposed);
  await deps.events.emit({
    type: "supervision.assessment",
    round,
    method: "heuristic",
    overallCoverage: heuristic.confidence,
    shouldContinue: proposed.length > 0,
    rationale,
    because: why,
    followUps: proposed.map((p) => p.topic),
  });
  const assessment = {
    ...base,
    method: "heuristic",
    error: assessError,
    overallCoverage: heuristic.confidence,
    shouldContinue: proposed.length > 0,
    rationale,
    rationaleBecause: why,
    followUps: proposed.map((p) => ({
      topic: p.topic,
      gap: p.gaps.join("; "),
      gapBecause: p.gapsBecause,
      priority: "normal",
    })),
  };
  if (heuristic.sufficient) {
    const stop = { code: "coverage_sufficient" as const, reason: rationale, because: why };
    return { think, assessment, generated: [], stop };
  }
  const { created } = await storeDirectives(
    deps,
    proposed.map((p) => ({ ...p, priority: "normal" as const })),
    { round, followUps: true, maxNew: deps.config.maxFollowUpsPerRound, cap: "follow_ups" },
  );
  const noFollowUps = created.length ? undefined : { reason: rationale, because: why };
  return { think, assessment, generated: created, noFollowUps };
}

/** The heuristic's rationale as a code: sufficient, following up directives (by number), or stuck. */
function heuristicBecause(
  heuristic: CoverageReport["heuristic"],
  threshold: number,
  assessError: string | undefined,
  proposed: readonly { directiveOrdinal: number }[],
): Because {
  const values = {
    said: assessError ?? "",
    coverage: Math.round(heuristic.confidence * 100) / 100,
    threshold,
  };
  if (heuristic.sufficient) return because("round_heuristic_sufficient", values);
  if (!proposed.length) return because("round_heuristic_no_gap", values);
  const directives = proposed.map((p) => p.directiveOrdinal).join(", ");
  return because("round_heuristic_follow_ups", { ...values, count: proposed.length, directives });
}

async function gapFollowUps(deps: EngineDeps, coverage: CoverageReport) {
  const max = Math.min(deps.config.heuristicFollowUps, deps.config.maxFollowUpsPerRound);
  if (max === 0) return [];
  const directives = new Map((await deps.store.listDirectives()).map((d) => [d.id, d] as const));
  return heuristicFollowUps(rankGaps(coverage.directives, deps.config), directives, max);
}

/** The model's assessment: stop when it judges coverage sufficient, otherwise store its follow-ups. */
async function followUpPlan(
  deps: EngineDeps,
  round: number,
  think: string | null,
  base: AssessmentBase,
  llm: Assessment,
): Promise<FollowUpRoundPlan> {
  const proposed = llm.follow_up_queries;
  await deps.events.emit({
    type: "supervision.assessment",
    round,
    method: "llm",
    overallCoverage: llm.overall_coverage,
    shouldContinue: llm.should_continue,
    rationale: llm.rationale,
    followUps: proposed.map((f) => f.topic),
  });
  const assessment = {
    ...base,
    method: "llm",
    overallCoverage: llm.overall_coverage,
    shouldContinue: llm.should_continue,
    rationale: llm.rationale,
    directiveAssessments: llm.directive_assessments,
    followUps: proposed.map((f) => ({ topic: f.topic, gap: f.gap, priority: f.priority })),
  };
  if (!llm.should_continue) {
    const reason = `the supervisor judged coverage sufficient (overall ${llm.overall_coverage.toFixed(2)}): ${llm.rationale}`;
    const why = because("round_model_sufficient", {
      coverage: Math.round(llm.overall_coverage * 100) / 100,
      said: llm.rationale,
    });
    return { think, assessment, generated: [], stop: { code: "coverage_sufficient", reason, because: why } };
  }
  const { created, rejected } = await storeDirectives(
    deps,
    proposed.map((f) => ({
      topic: f.topic,
      title: f.title,
      perspective: f.perspective.trim() || null,
      evidenceNeeded:
        [f.evidence_needed.trim(), f.gap.trim() && `Gap: ${f.gap.trim()}`].filter(Boolean).join("\n") || null,
      priority: f.priority,
    })),
    { round, followUps: true, maxNew: deps.config.maxFollowUpsPerRound, cap: "follow_ups" },
  );
  const noFollowUps = created.length
    ? undefined
    : proposed.length
      ? {
          reason: `all ${proposed.length} proposed follow-ups were rejected (${rejected} duplicates, vague or over a cap)`,
          because: because("round_follow_ups_rejected", { proposed: proposed.length, rejected }),
        }
      : { reason: "the supervisor proposed no follow-ups", because: because("round_no_follow_ups") };
  return { think, assessment, generated: created, noFollowUps };
}

/**
 * Calls `call` with the memory fitted to the budget; on a context-window error retries up to
 * MEMORY_RETRIES times with half the budget each time (instructions and brief never shrink),
 * recording each retry as a `token_limit.retry` event.
 */
export async function withMemoryBudget<T>(
  deps: EngineDeps,
  phase: string,
  entries: readonly MemoryEntry[],
  call: (kept: MemoryEntry[]) => Promise<T>,
): Promise<T> {
  let budget = deps.config.supervisorMemoryTokens;
  for (let attempt = 0; ; attempt++) {
    const kept = truncateMemory(entries, budget).entries;
    try {
      return await call(kept);
    } catch (e) {
      if (attempt >= MEMORY_RETRIES || !isContextWindowError(e)) throw e;
      const next = Math.floor(budget / 2);
      const used = kept.reduce((n, x) => n + entryChars(x), 0);
      const after = truncateMemory(entries, next).entries.reduce((n, x) => n + entryChars(x), 0);
      await deps.events.emit({
        type: "token_limit.retry",
        phase,
        attempt: attempt + 1,
        removedChars: used - after,
        budgetChars: next * CHARS_PER_TOKEN,
      });
      budget = next;
    }
  }
}
