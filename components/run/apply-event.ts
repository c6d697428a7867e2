/**
 * The run page's view kept current from the events themselves: each stored event changes the view
 * the way it changed the run and carries what the view shows of that change (a round's record, a
 * directive's findings, the stored report and its verdicts, usage by role), so the page reads the
 * whole run only on first load and after a gap in the events.
 */
import type { EventOf } from "@/lib/research/ui";
import type { StreamedEvent } from "./activity-model";
import type { DirectiveView, RunViewJson, SupervisionRoundView } from "./types";

/**
 * Whether `e` changed the run in a way it does not carry: only events stored before they carried
 * it (a run that was going on while the server was upgraded). One read for such an event.
 */
export function needsFullRead(e: StreamedEvent): boolean {
  switch (e.type) {
    case "supervision.round_completed":
      return e.record === undefined;
    case "directive.completed":
      return e.findings === undefined;
    case "report.completed":
      return e.markdown === undefined;
    case "plan.approved":
      return e.edited && e.changes === undefined;
    default:
      return false;
  }
}

const withDirective = (
  view: RunViewJson,
  id: string,
  change: (d: DirectiveView) => Partial<DirectiveView>,
): RunViewJson =>
  view.directives.some((d) => d.id === id)
    ? { ...view, directives: view.directives.map((d) => (d.id === id ? { ...d, ...change(d) } : d)) }
    : view;

/** The run's rounds with `record` in its place (by round), and the coverage after the latest. */
function withRound(view: RunViewJson, record: SupervisionRoundView): RunViewJson {
  const rounds = [...view.supervisionHistory.filter((r) => r.round !== record.round), record].sort(
    (a, b) => a.round - b.round,
  );
  const latest = rounds[rounds.length - 1];
  const coverage = (latest.coverageAfter ?? latest.coverageBefore ?? null) as RunViewJson["coverage"];
  return { ...view, supervisionHistory: rounds, coverage };
}

/** The plan as the person approved it: their edits applied to the proposed directives. */
function withPlanChanges(view: RunViewJson, e: EventOf<"plan.approved">): RunViewJson {
  let next = view;
  for (const c of e.changes ?? []) {
    next = withDirective(next, c.directiveId, () =>
      c.dropped
        ? { status: "skipped" }
        : {
            ...(c.topic ? { topic: c.topic, title: c.title ?? c.topic } : {}),
            ...(c.priority ? { priority: c.priority } : {}),
          },
    );
  }
  return next;
}

/** The finished report as stored, from the event that announced it. */
function withReport(view: RunViewJson, e: EventOf<"report.completed">): RunViewJson {
  if (e.markdown === undefined) return view;
  return {
    ...view,
    report: e.markdown,
    reportPartial: e.partial,
    citationStats: (e.citationStats ?? view.citationStats) as RunViewJson["citationStats"],
    // An event from before reasons had codes has no `because`: its English reason is shown.
    citations: e.verdicts?.map((v) => ({ ...v, because: v.because ?? null })) ?? view.citations,
  };
}

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
      return { ...next, status: "failed", error: e.reason, errorBecause: e.because ?? null, finishedAt: at };
    case "run.cancelled":
      return { ...next, status: "cancelled", finishedAt: at };
    case "run.queue_position":
      return { ...next, queuePosition: e.position };
    case "phase.started":
      return { ...next, phase: e.phase };
    case "clarification.requested":
      return { ...next, status: "awaiting_clarification", clarificationQuestion: e.question };
    case "clarification.answered":
      return { ...next, status: "running" };
    case "plan.approved":
      return withPlanChanges({ ...next, status: "running" }, e);
    case "plan.awaiting_review":
      return { ...next, status: "awaiting_plan_review" };
    case "brief.created":
      return { ...next, brief: e.brief };
    case "supervision.stopped_early":
      return { ...next, finishRequested: true };
    case "supervision.round_completed":
      return e.record ? withRound(next, e.record as SupervisionRoundView) : next;
    case "report.completed":
      return withReport(next, e);
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
    case "directive.completed": {
      const done = withDirective(next, e.directiveId, () => ({ status: "done" }));
      if (e.findings === undefined) return done;
      return { ...done, findings: { ...done.findings, [e.directiveId]: e.findings } };
    }
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
            recheck: null,
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
      if (e.usage) return { ...next, usage: e.usage as RunViewJson["usage"] };
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
