/**
 * Directive bookkeeping shared by the supervision rounds: storing new directives behind the
 * near-duplicate, specificity and cap checks; the execution order; and loading coverage.
 */

import { type Because, because } from "../../because.ts";
import type { EngineDeps } from "../../deps.ts";
import { type EventOf, emitAll } from "../../events.ts";
import type {
  DirectiveRecord,
  DirectiveSourceRecord,
  ResearcherResultRecord,
  SourceRecord,
} from "../../store.ts";
import {
  type DirectiveOrigin,
  type DirectivePriority,
  directivePriorities,
  priorityRank,
} from "../../vocabulary.ts";
import { type CoverageReport, computeCoverage } from "./coverage.ts";
import {
  describeRejection,
  type ExistingTopic,
  findNearDuplicate,
  rejectFollowUp,
  rejectionBecause,
  type TopicRejection,
} from "./dedup.ts";

export interface DirectiveCandidate {
  topic: string;
  /** The planner's short title, if it gave one. */
  title?: string | null;
  perspective: string | null;
  evidenceNeeded: string | null;
  priority: DirectivePriority;
  /** Why the supervisor wants it: the plan's reason or the gap a follow-up fills. */
  rationale?: string | null;
}

/**
 * A follow-up ranks below the originals: its priority drops one step (never below `low`) unless
 * the supervisor marked it critical, so the round-0 plan keeps precedence over gap-filling.
 */
export function followUpPriority(priority: DirectivePriority): DirectivePriority {
  if (priority === "critical") return priority;
  return directivePriorities[Math.min(directivePriorities.length - 1, priorityRank(priority) + 1)];
}

export function byPriority<T extends { priority: DirectivePriority }>(items: readonly T[]): T[] {
  // Array.prototype.sort is stable: equal priorities keep the model's order.
  return [...items].sort((a, b) => priorityRank(a.priority) - priorityRank(b.priority));
}

/**
 * Where a directive stands in the execution queue: user `critical` first, then user `high` and
 * `normal`, then the supervisor's own (originals, then follow-ups, each by priority; a critical
 * follow-up counts as an original), then user `low`. Ties keep creation order.
 */
export function executionRank(
  d: Pick<DirectiveRecord, "origin" | "priority"> & { type?: DirectiveRecord["type"] },
): number {
  if (d.origin === "user") {
    if (d.priority === "critical") return 0;
    if (d.priority === "low") return 3;
    return 1;
  }
  // Follow-ups queue behind the originals unless critical (0.5 > any priority step of 0.1 × 3).
  const behind = d.type === "follow-up" && d.priority !== "critical" ? 0.5 : 0;
  return 2 + behind + priorityRank(d.priority) / 10;
}

export function isRunnable(d: DirectiveRecord): boolean {
  // `running` here means a worker died mid-directive: the executor resumes it.
  return d.status === "pending" || d.status === "running";
}

export function executionOrder(directives: readonly DirectiveRecord[]): DirectiveRecord[] {
  return directives
    .filter(isRunnable)
    .sort((a, b) => executionRank(a) - executionRank(b) || a.ordinal - b.ordinal);
}

export interface StoreDirectivesOptions {
  round: number;
  /** Follow-ups must also be more specific than what was researched (see rejectFollowUp). */
  followUps: boolean;
  /** New directives allowed this round (before the run's total budget is applied). */
  maxNew: number;
  /** Which cap `maxNew` is, named in the rejection event: round 0's researchers or a round's follow-ups. */
  cap: "researchers" | "follow_ups";
  /**
   * The candidates are known to be distinct (one per compared element): check them against
   * earlier directives only, not each other, since parallel topics differ in a word or two.
   */
  distinctCandidates?: boolean;
}

/**
 * Stores the acceptable candidates as pending supervisor directives and reports each decision as
 * an event. Checks, in order: near-duplicate of an earlier directive or of an accepted candidate
 * (token-set Jaccard ≥ 0.8, which also catches exact duplicates), for follow-ups vagueness, then
 * the per-round cap and the run's total budget; the store's exact de-dup is the final guard.
 */
export async function storeDirectives(
  deps: EngineDeps,
  candidates: readonly DirectiveCandidate[],
  opts: StoreDirectivesOptions,
): Promise<{ created: DirectiveRecord[]; rejected: number }> {
  const existing = await deps.store.listDirectives();
  const earlier: ExistingTopic[] = existing.map((d) => ({ id: d.id, topic: d.topic }));
  // A parent's inherited directives are checked against (no repeats) but use none of this run's budget.
  const own = existing.filter((d) => d.type !== "inherited").length;
  const budgetLeft = Math.max(0, deps.config.maxDirectivesTotal - own);
  const limit = Math.min(opts.maxNew, budgetLeft);
  const accepted: DirectiveCandidate[] = [];
  const proposed: ExistingTopic[] = [];
  let rejected = 0;

  const reject = async (topic: string, reason: string, why: Because, similarTo?: string) => {
    rejected++;
    await deps.events.emit({
      type: "directive.rejected",
      round: opts.round,
      topic,
      reason,
      because: why,
      ...(similarTo ? { similarTo } : {}),
    });
  };

  for (const c of byPriority(candidates)) {
    const topic = c.topic.trim();
    if (!topic) continue;
    const against = opts.distinctCandidates ? earlier : [...earlier, ...proposed];
    const problem: TopicRejection | undefined = opts.followUps
      ? rejectFollowUp(topic, against)
      : nearDuplicate(topic, against);
    if (problem?.kind === "near_duplicate" && !problem.duplicateOf.startsWith("proposed:")) {
      rejected++;
      await deps.events.emit({
        type: "directive.duplicate_skipped",
        topic,
        duplicateOf: problem.duplicateOf,
        similarity: Math.round(problem.similarity * 1000) / 1000,
      });
      continue;
    }
    if (problem) {
      const other = problem.kind === "restatement" ? problem.similarTo : undefined;
      const similarTo = other?.startsWith("proposed:") ? undefined : other;
      await reject(topic, describeRejection(problem), rejectionBecause(problem), similarTo);
      continue;
    }
    if (accepted.length >= limit) {
      const [reason, why] = overCap(
        deps.config.maxDirectivesTotal,
        opts,
        limit === budgetLeft && budgetLeft < opts.maxNew,
      );
      await reject(topic, reason, why);
      continue;
    }
    proposed.push({ id: `proposed:${accepted.length}`, topic });
    accepted.push({ ...c, topic });
  }

  if (!accepted.length) return { created: [], rejected };
  const { created, duplicates } = await deps.store.addDirectives(
    accepted.map((c) => ({
      round: opts.round,
      topic: c.topic,
      title: c.title ?? null,
      perspective: c.perspective,
      evidenceNeeded: c.evidenceNeeded,
      priority: opts.followUps ? followUpPriority(c.priority) : c.priority,
      origin: "supervisor" as const,
      type: opts.followUps ? ("follow-up" as const) : ("initial" as const),
      rationale: c.rationale?.trim() || (opts.followUps ? followUpRationale(c) : null),
    })),
  );
  await announceDirectives(deps, created);
  for (const dup of duplicates) {
    await deps.events.emit({
      type: "directive.duplicate_skipped",
      topic: dup.topic,
      duplicateOf: dup.duplicateOf,
    });
  }
  return { created, rejected: rejected + duplicates.length };
}

/** The English names of the caps, as the `directive.rejected` reason has always said them. */
const capNames = { researchers: "limit of concurrent researchers", follow_ups: "per-round follow-up cap" };

/** Why a candidate over the cap is refused: the run's whole budget, else this round's cap. */
function overCap(total: number, opts: StoreDirectivesOptions, budgetUsed: boolean): [string, Because] {
  if (budgetUsed) {
    const reason = `the run's budget of ${total} directives is used up`;
    return [reason, because("reject_budget_used", { max: total })];
  }
  const code = opts.cap === "researchers" ? "reject_over_researchers" : "reject_over_follow_ups";
  return [`over the ${capNames[opts.cap]} of ${opts.maxNew}`, because(code, { max: opts.maxNew })];
}

/** A follow-up without a stated rationale: the gap recorded in its evidence needs, if any. */
function followUpRationale(c: DirectiveCandidate): string {
  const gap = c.evidenceNeeded?.match(/^Gap: (.+)$/m)?.[1]?.trim();
  return gap ? `Fills a coverage gap: ${gap}` : "Follow-up for a coverage gap the supervisor found.";
}

function nearDuplicate(topic: string, earlier: readonly ExistingTopic[]): TopicRejection | undefined {
  const dup = findNearDuplicate(topic, earlier);
  return dup ? { kind: "near_duplicate", duplicateOf: dup.id, similarity: dup.similarity } : undefined;
}

/** The run's coverage as stored right now, plus each directive's origin for the table. */
/** Coverage as measured from the store, with the rows it was measured from (later steps reuse them). */
export interface LoadedCoverage {
  report: CoverageReport;
  origins: Map<string, DirectiveOrigin>;
  directives: DirectiveRecord[];
  results: ResearcherResultRecord[];
  sources: SourceRecord[];
  /** The sources of every directive that was researched, each in its stored order. */
  sourcesByDirective: Map<string, DirectiveSourceRecord[]>;
}

/** `directives`: the run's list when the caller has just read it. */
export async function loadCoverage(
  deps: EngineDeps,
  known?: { directives: DirectiveRecord[] },
): Promise<LoadedCoverage> {
  const directives = known?.directives ?? (await deps.store.listDirectives());
  const researched = directives.filter((d) => d.status !== "pending" && d.status !== "skipped");
  // One read for every directive that was researched (not one per directive), beside the others:
  // at a round's end the directives are in hand, and the reads go out together.
  const [results, allSources, sourcesByDirective] = await Promise.all([
    deps.store.listResearcherResults(),
    deps.store.listSources(),
    deps.store.listSourcesOfDirectives(researched.map((d) => d.id)),
  ]);
  const findingsByDirective = new Map(
    results.map((r) => [r.directiveId, r.compressedFindings ?? r.rawNotes ?? ""] as const),
  );
  const report = computeCoverage(
    { directives, sourcesByDirective, findingsByDirective, seenSources: allSources.length },
    deps.config,
  );
  const origins = new Map(directives.map((d) => [d.id, d.origin]));
  return { report, origins, directives, results, sources: allSources, sourcesByDirective };
}

/** One `directive.created` event per stored directive, in order. */
export async function announceDirectives(
  deps: EngineDeps,
  created: readonly DirectiveRecord[],
): Promise<void> {
  // One block of events: a round's new directives are announced together, in their order.
  await emitAll(deps.events, created.map(directiveCreatedEvent));
}

/** The event a stored directive is announced with: what the run page shows of it. */
export function directiveCreatedEvent(d: DirectiveRecord): EventOf<"directive.created"> {
  return {
    type: "directive.created",
    directiveId: d.id,
    round: d.round,
    topic: d.topic,
    title: d.title,
    perspective: d.perspective,
    evidenceNeeded: d.evidenceNeeded,
    directiveType: d.type,
    rationale: d.rationale,
    priority: d.priority,
    origin: d.origin,
  };
}
