/**
 * Where a running run stands, for the progress card: the step of the stepper, the research round,
 * the counts, the time it has taken (without the time it waited for the person) and an estimate of
 * the time left. Pure functions over the run view and its stored events.
 */
import type { ResearchEvent } from "@/lib/research/ui";
import { terminalRunStatuses } from "@/lib/research/ui";
import type { ActivityEntry } from "../activity-model";
import type { RunViewJson } from "../types";

export const progressSteps = ["brief", "plan", "research", "writing", "checking", "done"] as const;
export type ProgressStep = (typeof progressSteps)[number];

type RunState = Pick<RunViewJson, "status" | "phase">;
type Entries = readonly Pick<ActivityEntry, "type" | "at" | "event">[];

const lastIndexOf = (entries: Entries, type: ResearchEvent["type"]) =>
  entries.findLastIndex((e) => e.type === type);

/** The stepper's current step: from the run's status and phase, refined by its latest events. */
export function currentStep(run: RunState, entries: Entries): ProgressStep {
  if (terminalRunStatuses.includes(run.status) || run.phase === "done") return "done";
  if (run.status === "awaiting_plan_review") return "plan";
  if (run.status === "awaiting_clarification" || run.status === "queued") return "brief";
  switch (run.phase) {
    case "clarification":
    case "brief":
    case null:
      return "brief";
    case "supervision":
      // Round 0 starts by planning: research begins when the first researcher does.
      return lastIndexOf(entries, "directive.started") >= 0 ? "research" : "plan";
    case "synthesis": {
      const citations = lastIndexOf(entries, "report.citations");
      return citations >= 0 && lastIndexOf(entries, "report.support_checked") < citations
        ? "checking"
        : "writing";
    }
    case "knowledge":
      return "checking";
    default:
      return "research";
  }
}

/** The most research rounds the run may take: round 0 plus the supervision rounds after it. */
export function maxRounds(settings: RunViewJson["settings"]): number {
  const s = (settings ?? {}) as { maxSupervisionRounds?: unknown; supervisionEnabled?: unknown };
  if (s.supervisionEnabled === false) return 1;
  const extra = typeof s.maxSupervisionRounds === "number" ? s.maxSupervisionRounds : 3;
  return Math.max(1, extra + 1);
}

/** The round being researched, counted from 1 (the engine counts from 0); 0 before the first. */
export function currentRound(entries: Entries): number {
  const started = entries.findLast((e) => e.event.type === "supervision.round_started");
  return started?.event.type === "supervision.round_started" ? started.event.round + 1 : 0;
}

const timeOf = (e: Pick<ActivityEntry, "at">) => (e.at ? Date.parse(e.at) : Number.NaN);

/** Intervals the run spent waiting for the person (clarification, plan review); the last may be open. */
function personWaits(entries: Entries): { from: number; to: number | null }[] {
  const waits: { from: number; to: number | null }[] = [];
  for (const e of entries) {
    const t = timeOf(e);
    if (Number.isNaN(t)) continue;
    if (e.type === "clarification.requested" || e.type === "plan.awaiting_review") {
      if (!waits.length || waits[waits.length - 1].to !== null) waits.push({ from: t, to: null });
    } else if (e.type === "clarification.answered" || e.type === "plan.approved") {
      const open = waits[waits.length - 1];
      if (open && open.to === null) open.to = t;
    }
  }
  return waits;
}

export const waitsForPerson = (run: Pick<RunViewJson, "status">) =>
  run.status === "awaiting_clarification" || run.status === "awaiting_plan_review";

/**
 * Milliseconds the run has worked: from its creation to its end (or `now`), less the time it
 * waited for the person. While it waits, the clock stands at the start of the wait.
 */
export function workingMs(
  run: Pick<RunViewJson, "createdAt" | "finishedAt" | "status">,
  entries: Entries,
  now: number,
): number {
  const start = Date.parse(run.createdAt);
  if (Number.isNaN(start)) return 0;
  const ended = terminalRunStatuses.includes(run.status);
  let end = run.finishedAt ? Date.parse(run.finishedAt) : ended ? start : now;
  const waits = personWaits(entries);
  const open = waits.at(-1);
  if (open && open.to === null) end = Math.min(end, open.from);
  const waited = waits.reduce((sum, w) => (w.to === null ? sum : sum + Math.max(0, w.to - w.from)), 0);
  return Math.max(0, end - start - waited);
}

export interface TimeLeft {
  minMs: number;
  maxMs: number;
}

/** Completed research rounds: start and end time of each, and whether the supervisor went on. */
function completedRounds(entries: Entries) {
  const starts = new Map<number, number>();
  const rounds: { ms: number; decision: "continue" | "stop" }[] = [];
  for (const e of entries) {
    if (e.event.type === "supervision.round_started") starts.set(e.event.round, timeOf(e));
    if (e.event.type === "supervision.round_completed") {
      const from = starts.get(e.event.round);
      const ms = from === undefined ? Number.NaN : timeOf(e) - from;
      if (!Number.isNaN(ms)) rounds.push({ ms: Math.max(0, ms), decision: e.event.decision });
    }
  }
  return rounds;
}

/**
 * How long the run may still take, from the end of its first round on: the mean round duration
 * times the rounds that may follow, plus writing (estimated as half a round: one long model call).
 * The low end assumes the current round is the last; never negative; undefined while the run
 * waits for the person, before the first round has ended, and once it has ended.
 */
export function timeLeft(
  run: Pick<RunViewJson, "status" | "phase" | "settings">,
  entries: Entries,
  now: number,
): TimeLeft | undefined {
  if (terminalRunStatuses.includes(run.status) || waitsForPerson(run)) return undefined;
  const rounds = completedRounds(entries);
  if (!rounds.length) return undefined;
  const mean = rounds.reduce((s, r) => s + r.ms, 0) / rounds.length;
  const writing = Math.max(30_000, mean / 2);
  if (run.phase === "synthesis" || run.phase === "knowledge") {
    const started = entries.findLast((e) => e.type === "phase.started");
    const since = started ? now - timeOf(started) : 0;
    const left = Math.max(0, writing - (Number.isNaN(since) ? 0 : since));
    return { minMs: left, maxMs: left };
  }
  const stopped = rounds.at(-1)?.decision === "stop";
  const inRound = stopped ? 0 : Math.max(0, mean - sinceLastRoundStart(entries, now));
  const more = stopped ? 0 : Math.max(0, maxRounds(run.settings) - rounds.length - 1);
  return { minMs: inRound + writing, maxMs: inRound + more * mean + writing };
}

function sinceLastRoundStart(entries: Entries, now: number): number {
  const started = entries.findLast((e) => e.type === "supervision.round_started");
  const t = started ? timeOf(started) : Number.NaN;
  return Number.isNaN(t) ? 0 : Math.max(0, now - t);
}

/** Sources the researchers read (not just found in results), and topics researched of those planned. */
export function progressCounts(run: Pick<RunViewJson, "sources" | "directives">) {
  const planned = run.directives.filter((d) => d.status !== "skipped");
  return {
    sourcesRead: run.sources.filter((s) => s.readInFull).length,
    sourcesFound: run.sources.length,
    topicsDone: planned.filter((d) => d.status === "done" || d.status === "failed").length,
    topics: planned.length,
  };
}
