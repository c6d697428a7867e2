/**
 * The live activity as the run page shows it: stored events turned into entries, grouped by the
 * researcher (directive) they belong to, and the one-line "now doing…" summary. Pure functions.
 */
import type { ResearchEvent, ResearchEventType } from "@/lib/research/ui";
import { terminalRunStatuses } from "@/lib/research/ui";
import { labelFor, runPhaseLabels } from "../labels";
import { clip, shortUrl, stopReasonLabel } from "./activity-labels";
import { describeEvent } from "./describe-event";
import type { DirectiveView, RunViewJson } from "./types";

/** A stored event as the SSE endpoint sends it: the event plus its sequence number and time. */
export type StreamedEvent = ResearchEvent & { seq: number; at?: string };

export interface ActivityEntry {
  seq: number;
  type: ResearchEventType;
  /** ISO time the event was stored (absent from very old rows). */
  at: string | null;
  text: string;
  /** The directive (researcher) the event belongs to; null for run-wide events. */
  directiveId: string | null;
  event: ResearchEvent;
}

export function toEntry(e: StreamedEvent): ActivityEntry {
  const { seq, at, ...event } = e;
  const plain = event as ResearchEvent;
  return {
    seq: Number(seq),
    type: plain.type,
    at: at ?? null,
    text: describeEvent(plain),
    directiveId: "directiveId" in plain && typeof plain.directiveId === "string" ? plain.directiveId : null,
    event: plain,
  };
}

/** Adds entries in seq order, dropping ones already seen (a reconnecting stream replays). */
export function mergeEntries(list: ActivityEntry[], more: ActivityEntry[]): ActivityEntry[] {
  const seen = new Set(list.map((e) => e.seq));
  const fresh = more.filter((e) => !seen.has(e.seq));
  if (!fresh.length) return list;
  return [...list, ...fresh].sort((a, b) => a.seq - b.seq);
}

/** "Researcher 1", "Researcher 2", … in the run's directive order (the API lists them by ordinal). */
export function researcherNumbers(directives: readonly Pick<DirectiveView, "id">[]): Map<string, number> {
  return new Map(directives.map((d, i) => [d.id, i + 1]));
}

export interface ActivityGroup {
  /** Directive id, or "run" for the supervisor's and the run's own events. */
  key: string;
  title: string;
  topic: string | null;
  /** Newest first. */
  entries: ActivityEntry[];
  lastSeq: number;
}

/** Entries grouped by researcher, the group with the newest event first, newest entries first. */
export function groupActivity(
  entries: readonly ActivityEntry[],
  directives: readonly Pick<DirectiveView, "id" | "topic" | "title">[],
): ActivityGroup[] {
  const numbers = researcherNumbers(directives);
  const topics = new Map(directives.map((d) => [d.id, d.title || d.topic]));
  const groups = new Map<string, ActivityGroup>();
  for (const e of entries) {
    const key = e.directiveId ?? "run";
    let g = groups.get(key);
    if (!g) {
      const n = e.directiveId ? numbers.get(e.directiveId) : undefined;
      g = {
        key,
        title: e.directiveId ? (n ? `Researcher ${n}` : "Researcher") : "Supervisor and run",
        topic: e.directiveId ? (topics.get(e.directiveId) ?? null) : null,
        entries: [],
        lastSeq: 0,
      };
      groups.set(key, g);
    }
    g.entries.push(e);
    g.lastSeq = Math.max(g.lastSeq, e.seq);
  }
  for (const g of groups.values()) g.entries.sort((a, b) => b.seq - a.seq);
  return [...groups.values()].sort((a, b) => b.lastSeq - a.lastSeq);
}

/** Events that say nothing about what the run is doing (bookkeeping). */
const quiet: ReadonlySet<ResearchEventType> = new Set(["usage.updated", "model.retry", "report.delta"]);

/** What a researcher is doing, after "Researcher 2 is …" / "Researcher 2 …". */
function researcherDoing(event: ResearchEvent): string | undefined {
  switch (event.type) {
    case "directive.started":
      return "is starting";
    case "researcher.search":
      return `is searching for “${clip(event.query, 60)}”`;
    case "researcher.search_results":
      return `is looking through the results for “${clip(event.query, 60)}”`;
    case "researcher.fetch":
      return event.ok ? `is reading ${shortUrl(event.url)}` : `could not read ${shortUrl(event.url)}`;
    case "researcher.fetch_refused":
      return `was refused ${shortUrl(event.url)}`;
    case "researcher.think":
    case "researcher.reflection_injected":
      return "is thinking about what it found";
    case "source.added":
      return `found ${clip(event.title || shortUrl(event.url), 60)}`;
    case "researcher.stopped":
    case "researcher.complete":
      return `stopped: ${stopReasonLabel(event.reason)}`;
    case "compression.retry":
    case "compression.completed":
      return "is condensing its findings";
    case "directive.completed":
      return "has finished";
    case "directive.failed":
      return "failed";
    default:
      return undefined;
  }
}

/** What the supervisor or the run is doing, from its latest event. */
function runDoing(event: ResearchEvent): string | undefined {
  switch (event.type) {
    case "phase.started":
      return labelFor(runPhaseLabels, event.phase);
    case "brief.created":
    case "supervision.first_round_generate":
    case "supervision.first_round_critique":
    case "supervision.first_round_revise":
      return "Planning the research";
    case "supervision.first_round_decomposition":
      return "Plan ready; starting the researchers";
    case "supervision.round_started":
      return event.round === 0 ? "Starting the researchers" : `Starting round ${event.round}`;
    case "supervision.think":
    case "supervision.assessment":
    case "supervision.heuristic_sufficient":
      return `Assessing coverage after round ${Math.max(0, event.round - 1)}`;
    case "supervision.round_completed":
      return event.decision === "continue"
        ? `Round ${event.round} done; planning the next round`
        : `Round ${event.round} done; research is complete`;
    case "supervision.stopped_early":
    case "report.started":
    case "report.citations":
    case "report.link_corrected":
      return "Writing the report";
    case "report.support_checked":
    case "report.completed":
      return "Checking the report's citations";
    case "knowledge.extracted":
      return "Saving what was learned";
    default:
      return undefined;
  }
}

const waitingLines: Partial<Record<RunViewJson["status"], string>> = {
  queued: "Waiting for a free slot",
  awaiting_clarification: "Waiting for your answer to a question",
  awaiting_plan_review: "Waiting for you to review the plan",
  completed: "Finished: the report is ready",
  failed: "Stopped: the run failed",
  cancelled: "Stopped: the run was cancelled",
};

/** One plain line: what the run is doing now (e.g. "Researcher 2 is reading example.org/…"). */
export function nowDoing(
  run: Pick<RunViewJson, "status" | "phase"> & { directives: readonly Pick<DirectiveView, "id">[] },
  entries: readonly ActivityEntry[],
): string {
  const waiting = waitingLines[run.status];
  if (waiting) return waiting;
  const numbers = researcherNumbers(run.directives);
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (quiet.has(e.type)) continue;
    if (e.directiveId) {
      const doing = researcherDoing(e.event);
      if (doing) return `Researcher ${numbers.get(e.directiveId) ?? ""} ${doing}`.replace("  ", " ");
    }
    const line = runDoing(e.event);
    if (line) return line;
  }
  return labelFor(runPhaseLabels, run.phase) || "Starting";
}

/** "45 s", "3 min 05 s", "1 h 02 min": how long the run has taken. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** Milliseconds from the run's creation to its end, or to `now` while it is going. */
export function elapsedMs(
  run: Pick<RunViewJson, "createdAt" | "finishedAt" | "status">,
  now: number,
): number {
  const start = Date.parse(run.createdAt);
  const ended = terminalRunStatuses.includes(run.status);
  const end = run.finishedAt ? Date.parse(run.finishedAt) : ended ? start : now;
  return Number.isNaN(start) ? 0 : end - start;
}

/** The time of day an event was stored, e.g. "14:03:27" (24-hour, so it reads the same everywhere). */
export function clockTime(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

/** Kept out of the feed: usage has its own panel, and a token count per call is noise. */
export const feedHidden: ReadonlySet<ResearchEventType> = new Set(["usage.updated"]);

/** The entries the feed shows, oldest first. */
export function feedEntries(entries: readonly ActivityEntry[]): ActivityEntry[] {
  return entries.filter((e) => !feedHidden.has(e.type));
}
