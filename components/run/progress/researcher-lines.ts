/**
 * What each working researcher is doing, as data the progress card puts into one sentence:
 * the kind of step and the site's name (never the page's address) or the search words.
 */
import { terminalRunStatuses } from "@/lib/research/ui";
import { clip } from "../activity-labels";
import type { ActivityEntry } from "../activity-model";
import type { DirectiveView, RunViewJson } from "../types";

export type ResearcherStep =
  | { kind: "starting" }
  | { kind: "searching"; query: string }
  | { kind: "scanning"; query: string }
  | { kind: "reading"; site: string }
  | { kind: "unreadable"; site: string }
  | { kind: "found"; site: string }
  | { kind: "thinking" }
  | { kind: "summing_up" };

export interface ResearcherLine {
  directiveId: string;
  title: string;
  step: ResearcherStep;
}

/**
 * "example.org" for "https://www.example.org/a/b?c": the site, without scheme, port or path; empty
 * for library:// documents and other non-web addresses (the card says "a document").
 */
export function siteName(url: string): string {
  try {
    const u = new URL(url);
    return /^https?:$/.test(u.protocol) ? u.hostname.replace(/^www\./, "") : "";
  } catch {
    return "";
  }
}

function stepOf(event: ActivityEntry["event"]): ResearcherStep | undefined {
  switch (event.type) {
    case "directive.started":
      return { kind: "starting" };
    case "researcher.search":
      return { kind: "searching", query: clip(event.query, 60) };
    case "researcher.search_results":
      return { kind: "scanning", query: clip(event.query, 60) };
    case "researcher.fetch":
      return event.ok
        ? { kind: "reading", site: siteName(event.url) }
        : { kind: "unreadable", site: siteName(event.url) };
    case "researcher.fetch_refused":
      return { kind: "unreadable", site: siteName(event.url) };
    case "source.added":
      return { kind: "found", site: siteName(event.url) };
    case "researcher.think":
    case "researcher.reflection_injected":
      return { kind: "thinking" };
    case "compression.retry":
    case "compression.completed":
    case "researcher.stopped":
    case "researcher.complete":
      return { kind: "summing_up" };
    default:
      return undefined;
  }
}

/** One line per directive a researcher is working on, in the run's directive order. */
export function researcherLines(
  run: Pick<RunViewJson, "status"> & {
    directives: readonly Pick<DirectiveView, "id" | "status" | "title">[];
  },
  entries: readonly Pick<ActivityEntry, "directiveId" | "event">[],
): ResearcherLine[] {
  if (terminalRunStatuses.includes(run.status)) return [];
  const latest = new Map<string, ResearcherStep>();
  for (const e of entries) {
    if (!e.directiveId) continue;
    const step = stepOf(e.event);
    if (step) latest.set(e.directiveId, step);
  }
  return run.directives
    .filter((d) => d.status === "running")
    .map((d) => ({ directiveId: d.id, title: d.title, step: latest.get(d.id) ?? { kind: "starting" } }));
}
