import type { EventOf, ResearchEvent } from "@/lib/research/ui";
import { failoverReasonLabels, labelFor, priorityLabels, qualityLabels, runPhaseLabels } from "../labels";
import { clip, plainReason, plural, roleLabel, shortUrl, stopReasonLabel } from "./activity-labels";

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const percent = (x: number) => `${Math.round(x * 100)}%`;
const phase = (p: string | null | undefined) => lower(labelFor(runPhaseLabels, p));

/**
 * One line a person can read for every event type (the raw payload stays in the API). The switch
 * is exhaustive: a new event type does not compile until it has words here.
 */
export function describeEvent(event: ResearchEvent): string {
  switch (event.type) {
    case "run.created":
      return event.warnings?.length
        ? `Run created; ${plural(event.warnings.length, "model")} left out: provider not set up`
        : "Run created";
    case "run.queue_position":
      return event.position === null
        ? "A slot is free: starting"
        : `Waiting for a free slot: number ${event.position} in your queue`;
    case "run.started":
      return event.attempt > 1 ? `Research started again (attempt ${event.attempt})` : "Research started";
    case "run.resumed":
      return `Picked up again after a restart${event.phase ? ` while ${phase(event.phase)}` : ""}`;
    case "run.legacy_resume":
      return "Picked up a run started by an older version of the app";
    case "run.completed":
      return `Completed with ${plural(event.sources, "source")} and ${plural(event.citations, "citation")}${event.partial ? " (partial report)" : ""}`;
    case "run.failed":
      return `Failed: ${event.reason}`;
    case "run.cancelled":
      return event.reason ? `Cancelled: ${event.reason}` : "Cancelled";
    case "phase.started":
      return labelFor(runPhaseLabels, event.phase);
    case "phase.completed":
      return event.phase === "done"
        ? "Wrapped up"
        : `Finished ${phase(event.phase)} in ${Math.max(1, Math.round(event.durationMs / 1000))} s`;
    case "clarification.requested":
      return `Asked you: ${clip(event.question, 200)}`;
    case "clarification.answered":
      return "You answered the clarifying question";
    case "brief.created":
      return `Research brief written${event.knowledgeItems ? ` using ${plural(event.knowledgeItems, "saved finding")}` : ""}${event.fallback ? " (from the question itself)" : ""}`;
    default:
      return describePlanning(event);
  }
}

function describePlanning(event: ResearchEvent): string {
  switch (event.type) {
    case "supervision.first_round_generate":
      return event.fallback
        ? "Planning failed; researching the brief as one topic"
        : `Planned ${plural(event.count, "research topic")}`;
    case "supervision.first_round_critique":
      return critique(event);
    case "supervision.first_round_revise":
      return event.skipped
        ? `Plan kept as it was${event.reason ? ` (${event.reason})` : ""}`
        : `Plan revised: ${event.before ?? "?"} → ${plural(event.after ?? event.count ?? 0, "topic")}`;
    case "supervision.first_round_decomposition":
      return `Plan ready: ${plural(event.finalCount, "directive")}${event.revised ? " after revision" : ""}`;
    case "supervision.round_started":
      return event.round === 0
        ? "Round 0 started: planning the research"
        : `Round ${event.round} started with ${plural(event.pending, "directive")} waiting`;
    case "supervision.think":
      return `Supervisor's thinking: ${clip(event.text, 200)}`;
    case "supervision.assessment":
      return `Round ${event.round}: coverage ${percent(event.overallCoverage)}${event.method === "heuristic" ? " (measured from the sources)" : ""} — ${event.shouldContinue ? "more research needed" : "enough"}`;
    case "supervision.heuristic_sufficient":
      return `Round ${event.round}: every directive clearly covered — model assessment skipped`;
    case "supervision.round_completed":
      return `Round ${event.round}: ${event.decision === "continue" ? "continuing" : "stopping"} — ${plainReason(event.reason)}`;
    case "supervision.stopped_early":
      return `Research stopped at your request after ${plural(event.researched, "directive")}: writing the report now`;
    case "plan.awaiting_review":
      return `Plan ready for your review (${plural(event.directives, "directive")})`;
    case "plan.approved":
      return event.edited ? "You approved the plan with changes" : "You approved the plan";
    default:
      return describeDirective(event);
  }
}

function critique(event: EventOf<"supervision.first_round_critique">): string {
  if (event.failed) return "Could not review the plan; keeping it as planned";
  const issues = Object.entries(event.criteria)
    .filter(([, status]) => status === "ISSUE")
    .map(([name]) => name);
  return issues.length ? `Plan reviewed: issues with ${issues.join(", ")}` : "Plan reviewed: no issues found";
}

function describeDirective(event: ResearchEvent): string {
  switch (event.type) {
    case "directive.created": {
      const priority = lower(priorityLabels[event.priority] ?? event.priority);
      return event.origin === "user"
        ? `You added a directive (${priority} priority): ${clip(event.topic, 140)}`
        : `Supervisor added a directive (round ${event.round}, ${priority} priority): ${clip(event.topic, 140)}`;
    }
    case "directive.duplicate_skipped":
      return `Not added, already covered: ${clip(event.topic, 140)}`;
    case "directive.rejected":
      return `Not added: ${clip(event.topic, 140)} — ${event.reason}`;
    case "directive.skipped":
      return `Directive skipped: ${event.reason}`;
    case "directive.aged_out":
      return `Skipped after waiting since round ${event.addedInRound} (low priority): ${clip(event.topic, 140)}`;
    case "directive.started":
      return "Started researching";
    case "directive.completed":
      return `Finished researching with ${plural(event.sources, "source")}`;
    case "directive.failed":
      return `Research failed: ${event.error}`;
    default:
      return describeResearcher(event);
  }
}

function describeResearcher(event: ResearchEvent): string {
  switch (event.type) {
    case "researcher.search":
      return `Searching for “${event.query}”`;
    case "researcher.search_results":
      return `${plural(event.results, "result")} for “${event.query}” (${event.fresh} new)${event.errors.length ? `; ${plural(event.errors.length, "search service")} failed` : ""}`;
    case "researcher.fetch":
      return event.ok
        ? `Read ${event.url}${event.fromStore ? " (stored copy)" : ""}`
        : `Could not read ${event.url}${event.reason ? ` (${event.reason})` : ""}`;
    case "researcher.fetch_refused":
      return `Refused to read ${event.url} — ${event.reason}`;
    case "researcher.think":
      return `Thought: ${clip(event.text, 240)}`;
    case "researcher.reflection_injected":
      return "Reminded to reflect before going on";
    case "researcher.stopped":
      return `Stopped because ${stopReasonLabel(event.reason)} (${plural(event.counts.sourcesRead, "page")} read, ${plural(event.counts.searches, "search", "searches")})`;
    case "researcher.complete":
      return `Researcher done: ${stopReasonLabel(event.reason)} (${plural(event.toolCalls, "step")})`;
    case "source.added":
      return `Found a source: ${event.title || shortUrl(event.url, 80)} (${lower(labelFor(qualityLabels, event.quality))})`;
    case "sources.rechecked":
      return `Cited sources checked again: ${event.unchanged} unchanged, ${event.changed} changed, ${event.gone} gone`;
    case "compression.retry":
      return `Condensing the findings again (attempt ${event.attempt})`;
    case "compression.completed":
      return event.fallback ? "Findings kept as raw notes (condensing failed)" : "Findings condensed";
    default:
      return describeReport(event);
  }
}

function describeReport(event: ResearchEvent): string {
  switch (event.type) {
    case "report.started":
      return "Writing the report";
    case "report.delta":
      return "Writing the report…";
    case "report.citations":
      return `Citations checked: ${event.kept} kept${event.removedUnknown ? `, ${event.removedUnknown} to unknown sources removed` : ""}`;
    case "report.support_checked":
      return `Citations compared with their sources: ${event.supported} supported, ${event.partially_supported} partly supported, ${event.unsupported} unsupported, ${event.unchecked} not checked`;
    case "report.link_corrected":
      return "Corrected a link to match the source it cites";
    case "report.completed":
      return `Report written with ${plural(event.citations, "citation")}${event.partial ? " (partial)" : ""}`;
    case "token_limit.retry":
      return `Text too long for the model while ${phase(event.phase) || "working"}; shortened and retried`;
    case "knowledge.extracted":
      return event.failed
        ? "Could not save findings for your knowledge base"
        : `Saved ${plural(event.count, "finding")} for your knowledge base to review`;
    case "run.degraded":
      return event.notice;
    case "model.retry":
      return `The model was busy (${lower(roleLabel(event.role))}); trying again (attempt ${event.attempt})`;
    case "model.failover":
      return `Switched from ${event.from} to ${event.to} (${lower(roleLabel(event.role))}): ${labelFor(failoverReasonLabels, event.reason)}`;
    case "usage.updated":
      return `Used ${(event.inputTokens + event.outputTokens).toLocaleString("en-US")} tokens so far${event.cost ? ` ($${event.cost.toFixed(4)})` : ""}`;
    case "question.asked":
      return `Asked about the report: ${clip(event.question, 80)}`;
    case "question.answered":
      return event.status === "answered"
        ? `Answered a question with ${plural(event.citations, "citation")}`
        : "The sources do not answer a question";
    case "question.failed":
      return `Could not answer a question: ${plainReason(event.reason)}`;
    default:
      return unreachable(event);
  }
}

/** Every type is handled above; an event from a newer server still gets words, not its raw name. */
function unreachable(event: ResearchEvent): string {
  return `Step: ${event.type.split(".").at(-1)?.replaceAll("_", " ") ?? "update"}`;
}
