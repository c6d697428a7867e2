/**
 * The live activity as the run page shows it: stored events turned into entries, grouped by the
 * researcher (directive) they belong to. Pure functions; the words are made where an entry is
 * shown (describe-event.ts), in the page's language.
 */
import type { ResearchEvent, ResearchEventType } from "@/lib/research/ui";
import { terminalRunStatuses } from "@/lib/research/ui";
import type { Translate } from "./run-words";
import type { DirectiveView, RunViewJson } from "./types";

/** A stored event as the SSE endpoint sends it: the event plus its sequence number and time. */
export type StreamedEvent = ResearchEvent & { seq: number; at?: string };

export interface ActivityEntry {
  seq: number;
  type: ResearchEventType;
  /** ISO time the event was stored (absent from very old rows). */
  at: string | null;
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
  /** The researcher's number (1, 2, …); 0 for a directive the run no longer lists; null for the run's own group. */
  researcher: number | null;
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
        researcher: e.directiveId ? (n ?? 0) : null,
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

/** "45 s", "3 min 05 s", "1 h 02 min": how long the run has taken, in the translator's language. */
export function formatElapsed(ms: number, t: Translate): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return t("run.elapsed.seconds", { seconds: s });
  const m = Math.floor(s / 60);
  const two = (n: number) => String(n).padStart(2, "0");
  if (m < 60) return t("run.elapsed.minutes", { minutes: m, seconds: two(s % 60) });
  return t("run.elapsed.hours", { hours: Math.floor(m / 60), minutes: two(m % 60) });
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
