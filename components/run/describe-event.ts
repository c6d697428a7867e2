import type { ResearchEvent } from "@/lib/research/events";

/** One line a human can read for each event type (the raw payload is in the API). */
export function describeEvent(event: ResearchEvent): string {
  switch (event.type) {
    case "phase.started":
      return `Phase ${event.phase} started`;
    case "brief.created":
      return "Research brief written";
    case "directive.created":
      return `Directive (${event.origin}, ${event.priority}): ${event.topic.slice(0, 140)}`;
    case "researcher.search":
      return `Search: ${event.query}`;
    case "researcher.fetch":
      return `${event.ok ? "Read" : "Could not read"} ${event.url}${event.reason ? ` (${event.reason})` : ""}`;
    case "researcher.fetch_refused":
      return `Refused to read ${event.url} — ${event.reason}`;
    case "source.added":
      return `Source: ${event.title || event.url} [${event.quality}]`;
    case "supervision.assessment":
      return `Coverage ${Math.round(event.overallCoverage * 100)}% (${event.method}) — ${event.shouldContinue ? "continuing" : "enough"}`;
    case "supervision.heuristic_sufficient":
      return `Round ${event.round}: every directive clearly covered — model assessment skipped`;
    case "supervision.round_completed":
      return `Round ${event.round}: ${event.decision} — ${event.reason}`;
    case "run.failed":
      return `Failed: ${event.reason}`;
    case "run.completed":
      return `Completed with ${event.sources} sources and ${event.citations} citations`;
    default:
      return event.type;
  }
}
