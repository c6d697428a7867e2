/**
 * The run page's view kept current from the events themselves: each stored event changes the view
 * the way it changed the run, so the page reads the whole run only on first load, after a gap in
 * the events (a reconnect) and at a few points where the event alone cannot say enough.
 */
import type { ResearchEventType } from "@/lib/research/ui";
import type { StreamedEvent } from "./activity-model";
import type { DirectiveView, RunViewJson } from "./types";

/**
 * Events whose effect on the view needs the stored rows: a round's coverage and record, and the
 * run's end (the report, its citations and their verdicts). One read each, not one per burst.
 */
export const needsFullRead: ReadonlySet<ResearchEventType> = new Set([
  "supervision.round_completed",
  "run.completed",
  "run.failed",
  "run.cancelled",
]);

const withDirective = (
  view: RunViewJson,
  id: string,
  change: (d: DirectiveView) => Partial<DirectiveView>,
): RunViewJson =>
  view.directives.some((d) => d.id === id)
    ? { ...view, directives: view.directives.map((d) => (d.id === id ? { ...d, ...change(d) } : d)) }
    : view;

/** The view after `e`; the same object when `e` changes nothing the view shows. */
export function applyEvent(view: RunViewJson, e: StreamedEvent): RunViewJson {
  const at = e.at ?? new Date().toISOString();
  const next = { ...view, lastEventSeq: Math.max(view.lastEventSeq, e.seq) };
  switch (e.type) {
    case "run.started":
    case "run.resumed":
      return { ...next, status: "running", queuePosition: null };
    case "run.completed":
      return { ...next, status: "completed", phase: "done", finishedAt: at };
    case "run.failed":
      return { ...next, status: "failed", error: e.reason, finishedAt: at };
    case "run.cancelled":
      return { ...next, status: "cancelled", finishedAt: at };
    case "run.queue_position":
      return { ...next, queuePosition: e.position };
    case "phase.started":
      return { ...next, phase: e.phase };
    case "clarification.requested":
      return { ...next, status: "awaiting_clarification", clarificationQuestion: e.question };
    case "clarification.answered":
    case "plan.approved":
      return { ...next, status: "running" };
    case "plan.awaiting_review":
      return { ...next, status: "awaiting_plan_review" };
    case "brief.created":
      return { ...next, brief: e.brief };
    case "supervision.stopped_early":
      return { ...next, finishRequested: true };
    case "directive.created":
      if (next.directives.some((d) => d.id === e.directiveId)) return next;
      return {
        ...next,
        directives: [
          ...next.directives,
          {
            id: e.directiveId,
            round: e.round,
            topic: e.topic,
            title: e.title ?? e.topic,
            perspective: e.perspective ?? null,
            evidenceNeeded: e.evidenceNeeded ?? null,
            priority: e.priority,
            origin: e.origin,
            type: e.directiveType ?? (e.origin === "user" ? "user" : e.round === 0 ? "initial" : "follow-up"),
            rationale: e.rationale ?? null,
            status: "pending",
            error: null,
            stopReason: null,
          },
        ],
      };
    case "directive.started":
      return withDirective(next, e.directiveId, () => ({ status: "running" }));
    case "directive.completed":
      return withDirective(next, e.directiveId, () => ({ status: "done" }));
    case "directive.failed":
      return withDirective(next, e.directiveId, () => ({ status: "failed", error: e.error }));
    case "directive.skipped":
      return withDirective(next, e.directiveId, () => ({ status: "skipped", error: e.reason }));
    case "directive.aged_out":
      return withDirective(next, e.directiveId, () => ({ status: "skipped" }));
    case "researcher.stopped":
    case "researcher.complete":
      return withDirective(next, e.directiveId, () => ({ stopReason: e.reason }));
    case "source.added":
      if (next.sources.some((s) => s.id === e.sourceId)) return next;
      return {
        ...next,
        sources: [
          ...next.sources,
          {
            id: e.sourceId,
            url: e.url,
            title: e.title,
            domain: e.domain,
            provider: e.provider ?? "",
            quality: e.quality as RunViewJson["sources"][number]["quality"],
            readInFull: false,
          },
        ],
      };
    case "researcher.fetch":
      // A page read in full: the source of that address now has its text.
      if (!e.ok) return next;
      return {
        ...next,
        sources: next.sources.map((s) => (s.url === e.url && !s.readInFull ? { ...s, readInFull: true } : s)),
      };
    case "run.degraded": {
      const { type: _t, seq: _s, at: _a, ...degradation } = e;
      const seen = next.degradations.some(
        (d) => d.step === degradation.step && d.round === degradation.round,
      );
      return seen ? next : { ...next, degradations: [...next.degradations, { ...degradation, at }] };
    }
    case "usage.updated": {
      const usage = (next.usage ?? {}) as { total?: Record<string, unknown> };
      const total = {
        ...usage.total,
        inputTokens: e.inputTokens,
        outputTokens: e.outputTokens,
        costUsd: e.cost,
      };
      return { ...next, usage: { ...usage, total } };
    }
    default:
      return next;
  }
}
