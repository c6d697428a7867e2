import type { EventOf, ResearchEvent } from "@/lib/research/ui";
import { clip, plainReason, shortUrl, stopReasonLabel } from "./activity-labels";
import { becauseText } from "./because-text";
import { degradationText } from "./degradation-text";
import { roundReasonText } from "./round-reason";
import { labelOf, type Translate } from "./run-words";

const yes = (b: unknown) => (b ? "yes" : "no");

/** A phase as the middle of a sentence ("while writing the report"); "working" when unknown. */
function phaseDoing(t: Translate, p: string | null | undefined): string {
  return labelOf(t, "runEvents.phaseDoing", p) || t("runEvents.phaseDoing.other");
}

/**
 * One line a person can read for every event type, in the page's language (the raw payload stays in
 * the API). The switch is exhaustive: a new event type does not compile until it has words here.
 */
export function describeEvent(event: ResearchEvent, t: Translate): string {
  switch (event.type) {
    case "run.created":
      return event.warnings?.length
        ? t("runEvents.createdLeftOut", { count: event.warnings.length })
        : t("runEvents.created");
    case "run.queue_position":
      return event.position === null
        ? t("runEvents.slotFree")
        : t("runEvents.queued", { position: event.position });
    case "run.started":
      return event.attempt > 1
        ? t("runEvents.startedAgain", { attempt: event.attempt })
        : t("runEvents.started");
    case "run.resumed":
      return event.phase
        ? t("runEvents.resumedWhile", { phase: phaseDoing(t, event.phase) })
        : t("runEvents.resumed");
    case "run.legacy_resume":
      return t("runEvents.legacyResume");
    case "run.completed":
      return t("runEvents.completed", {
        sources: event.sources,
        citations: event.citations,
        partial: yes(event.partial),
      });
    case "run.failed":
      return t("runEvents.failed", { reason: becauseText(t, event.because, event.reason) });
    case "run.cancelled":
      return event.reason
        ? t("runEvents.cancelledBecause", { reason: becauseText(t, event.because, event.reason) })
        : t("runEvents.cancelled");
    case "phase.started":
      return phaseLabel(t, event.phase);
    case "phase.completed":
      return event.phase === "done"
        ? t("runEvents.wrappedUp")
        : t("runEvents.phaseDone", {
            phase: phaseDoing(t, event.phase),
            seconds: Math.max(1, Math.round(event.durationMs / 1000)),
          });
    case "clarification.requested":
      return t("runEvents.asked", { question: clip(event.question, 200) });
    case "clarification.answered":
      return t("runEvents.answered");
    case "brief.created":
      return t("runEvents.brief", { items: event.knowledgeItems ?? 0, fallback: yes(event.fallback) });
    default:
      return describePlanning(event, t);
  }
}

/** A run phase's label ("Writing the report"); an unknown one from an older row, de-snaked. */
export function phaseLabel(t: Translate, p: string | null | undefined): string {
  return labelOf(t, "run.phase", p);
}

function describePlanning(event: ResearchEvent, t: Translate): string {
  switch (event.type) {
    case "supervision.first_round_generate":
      return event.fallback ? t("runEvents.planFailed") : t("runEvents.planned", { count: event.count });
    case "supervision.first_round_critique":
      return critique(event, t);
    case "supervision.first_round_revise":
      if (!event.skipped)
        return t("runEvents.planRevised", {
          before: event.before ?? "?",
          after: event.after ?? event.count ?? 0,
        });
      return event.reason
        ? t("runEvents.planKeptBecause", { reason: becauseText(t, event.because, event.reason) })
        : t("runEvents.planKept");
    case "supervision.first_round_decomposition":
      return t("runEvents.planReady", { count: event.finalCount, revised: yes(event.revised) });
    case "supervision.round_started":
      return event.round === 0
        ? t("runEvents.roundZero")
        : t("runEvents.roundStarted", { round: event.round, pending: event.pending });
    case "supervision.think":
      return t("runEvents.supervisorThought", { text: clip(event.text, 200) });
    case "supervision.assessment":
      return t("runEvents.assessment", {
        round: event.round,
        coverage: event.overallCoverage,
        heuristic: yes(event.method === "heuristic"),
        more: yes(event.shouldContinue),
      });
    case "supervision.heuristic_sufficient":
      return t("runEvents.heuristicSufficient", { round: event.round });
    case "supervision.round_completed":
      return t("runEvents.roundCompleted", {
        round: event.round,
        decision: event.decision,
        reason: roundReasonText(t, event.because, event.reason),
      });
    case "supervision.stopped_early":
      return t("runEvents.stoppedEarly", { count: event.researched });
    case "plan.awaiting_review":
      return t("runEvents.awaitingReview", { count: event.directives });
    case "plan.approved":
      return event.edited ? t("runEvents.approvedEdited") : t("runEvents.approved");
    default:
      return describeDirective(event, t);
  }
}

function critique(event: EventOf<"supervision.first_round_critique">, t: Translate): string {
  if (event.failed) return t("runEvents.critiqueFailed");
  const issues = Object.entries(event.criteria)
    .filter(([, status]) => status === "ISSUE")
    .map(([name]) => t("runEvents.criterion", { name }));
  return issues.length
    ? t("runEvents.critiqueIssues", { issues: issues.join(t("runEvents.listSeparator")) })
    : t("runEvents.critiqueFine");
}

function describeDirective(event: ResearchEvent, t: Translate): string {
  switch (event.type) {
    case "directive.created": {
      const values = { priority: event.priority, topic: clip(event.topic, 140) };
      return event.origin === "user"
        ? t("runEvents.directiveByUser", values)
        : t("runEvents.directiveBySupervisor", { ...values, round: event.round });
    }
    case "directive.duplicate_skipped":
      return t("runEvents.duplicate", { topic: clip(event.topic, 140) });
    case "directive.rejected":
      return t("runEvents.rejected", {
        topic: clip(event.topic, 140),
        reason: becauseText(t, event.because, event.reason),
      });
    case "directive.skipped":
      return t("runEvents.directiveSkipped", { reason: becauseText(t, event.because, event.reason) });
    case "directive.aged_out":
      return t("runEvents.agedOut", { round: event.addedInRound, topic: clip(event.topic, 140) });
    case "directive.started":
      return t("runEvents.directiveStarted");
    case "directive.completed":
      return t("runEvents.directiveDone", { count: event.sources });
    case "directive.failed":
      return t("runEvents.directiveFailed", { error: event.error });
    default:
      return describeResearcher(event, t);
  }
}

function describeResearcher(event: ResearchEvent, t: Translate): string {
  switch (event.type) {
    case "researcher.search":
      return t("runEvents.search", { query: event.query });
    case "researcher.search_results":
      return t("runEvents.results", {
        count: event.results,
        query: event.query,
        fresh: event.fresh,
        failed: event.errors.length,
      });
    case "researcher.fetch":
      if (event.ok) return t("runEvents.read", { url: event.url, stored: yes(event.fromStore) });
      return event.reason
        ? t("runEvents.unreadableBecause", {
            url: event.url,
            reason: becauseText(t, event.because, event.reason),
          })
        : t("runEvents.unreadable", { url: event.url });
    case "researcher.fetch_refused":
      return t("runEvents.refused", { url: event.url, reason: becauseText(t, event.because, event.reason) });
    case "researcher.think":
      return t("runEvents.thought", { text: clip(event.text, 240) });
    case "researcher.reflection_injected":
      return t("runEvents.reflect");
    case "researcher.stopped":
      return t("runEvents.stopped", {
        reason: stopReasonLabel(t, event.reason),
        pages: event.counts.sourcesRead,
        searches: event.counts.searches,
      });
    case "researcher.complete":
      return t("runEvents.researcherDone", {
        reason: stopReasonLabel(t, event.reason),
        steps: event.toolCalls,
      });
    case "source.added":
      return t("runEvents.sourceAdded", {
        title: event.title || shortUrl(event.url, 80),
        quality: event.quality,
      });
    case "sources.rechecked":
      return t("runEvents.rechecked", {
        unchanged: event.unchanged,
        changed: event.changed,
        gone: event.gone,
      });
    case "compression.retry":
      return t("runEvents.condenseRetry", { attempt: event.attempt });
    case "compression.completed":
      return event.fallback ? t("runEvents.condenseFailed") : t("runEvents.condensed");
    default:
      return describeReport(event, t);
  }
}

function describeReport(event: ResearchEvent, t: Translate): string {
  switch (event.type) {
    case "report.started":
      return t("runEvents.reportStarted");
    case "report.delta":
      return t("runEvents.reportDelta");
    case "report.citations":
      return t("runEvents.citations", { kept: event.kept, removed: event.removedUnknown });
    case "report.support_checked":
      return t("runEvents.supportChecked", {
        supported: event.supported,
        partly: event.partially_supported,
        unsupported: event.unsupported,
        unchecked: event.unchecked,
      });
    case "report.link_corrected":
      return t("runEvents.linkCorrected");
    case "report.completed":
      return t("runEvents.reportDone", { count: event.citations, partial: yes(event.partial) });
    case "token_limit.retry":
      return t("runEvents.tokenLimit", { phase: phaseDoing(t, event.phase) });
    case "knowledge.extracted":
      return event.failed
        ? t("runEvents.knowledgeFailed")
        : t("runEvents.knowledgeSaved", { count: event.count });
    case "run.degraded":
      return degradationText(t, event);
    case "model.retry":
      return t("runEvents.modelRetry", { role: roleDoing(t, event.role), attempt: event.attempt });
    case "model.failover":
      return t("runEvents.failover", {
        from: event.from,
        to: event.to,
        role: roleDoing(t, event.role),
        reason: failoverLabel(t, event.reason),
      });
    default:
      return describeAnswers(event, t);
  }
}

function describeAnswers(event: ResearchEvent, t: Translate): string {
  switch (event.type) {
    case "usage.updated": {
      // Formatted in the translator's locale: "1,500" in English, "1.500" in German.
      const tokens = event.inputTokens + event.outputTokens;
      return event.cost
        ? t("runEvents.usageCost", { tokens, cost: event.cost })
        : t("runEvents.usage", { tokens });
    }
    case "question.asked":
      return t("runEvents.questionAsked", { question: clip(event.question, 80) });
    case "question.answered":
      return event.status === "answered"
        ? t("runEvents.questionAnswered", { count: event.citations })
        : t("runEvents.questionUnanswered");
    case "question.failed":
      return t("runEvents.questionFailed", {
        reason: becauseText(t, event.because, plainReason(event.reason)),
      });
    default:
      return unreachable(event, t);
  }
}

/** A model role in the middle of a sentence ("researchers", "writing the report"). */
const roleDoing = (t: Translate, role: string) => t("runEvents.roleDoing", { role });

/** A switch's reason in words (an unknown reason from a newer server, de-snaked). */
export function failoverLabel(t: Translate, reason: string): string {
  return labelOf(t, "run.failover", reason);
}

/** Every type is handled above; an event from a newer server still gets words, not its raw name. */
function unreachable(event: ResearchEvent, t: Translate): string {
  const type = (event as { type: string }).type;
  return t("runEvents.step", { name: type.split(".").at(-1)?.replaceAll("_", " ") ?? "" });
}
