/**
 * Every progress event of a run, as one typed union. Type names are `area.action`; the payload is
 * the rest of the object. Events are persisted as run_events rows (gapless seq) before anyone sees
 * them, except the transient ones (report.delta), which stream live and are never stored one by one.
 */
import type { UsageSnapshot } from "../ai/usage.ts";
import type { Because } from "./because.ts";
import type { Degradation } from "./degradations.ts";
import type { StopCounts, StopRule } from "./phases/directive/stop-rules.ts";
import type { SupervisionRoundRecord } from "./store.ts";
import type {
  CitationSupport,
  DirectivePriority,
  FailoverReason,
  QuestionComplexity,
  RunPhase,
  RunStatus,
} from "./vocabulary.ts";

export type ResearchEvent =
  // run lifecycle
  /** `warnings`: models of the run's chains left out because their provider is not configured. */
  | { type: "run.created"; question: string; settings: Record<string, unknown>; warnings?: string[] }
  | { type: "run.started"; attempt: number }
  /** The run's place in its owner's queue moved (1 = next); null once a slot is free for it. */
  | { type: "run.queue_position"; position: number | null }
  | { type: "run.resumed"; phase: RunPhase | null; attempt: number }
  | { type: "run.legacy_resume"; fromVersion: number; toVersion: number; note: string }
  | { type: "run.completed"; sources: number; citations: number; partial: boolean }
  /** `reason`: plain English (the API's); `because`: the same as a code the UI says in its language. */
  | { type: "run.failed"; reason: string; because?: Because; partial: boolean }
  | { type: "run.cancelled"; reason: string; because?: Because }
  | { type: "phase.started"; phase: RunPhase }
  | { type: "phase.completed"; phase: RunPhase; durationMs: number }
  // clarification and brief
  | { type: "clarification.requested"; question: string }
  | { type: "clarification.answered"; answer: string }
  | { type: "brief.created"; brief: string; knowledgeItems: number; fallback?: boolean; reason?: string }
  // supervision
  | {
      type: "supervision.first_round_generate";
      count: number;
      topics: string[];
      fallback?: boolean;
      reason?: string;
      /** `reason` as a code with its values (absent from older events). */
      because?: Because;
    }
  | {
      type: "supervision.first_round_critique";
      /** UNCHECKED when the critique call failed (failed: true) and the generated set was kept. */
      criteria: Record<
        "redundancy" | "coverage" | "proportionality" | "specificity",
        "PASS" | "ISSUE" | "UNCHECKED"
      >;
      verdict: string;
      failed?: boolean;
      notes?: Record<string, string>;
    }
  | {
      type: "supervision.first_round_revise";
      skipped: boolean;
      count?: number;
      reason?: string;
      /** `reason` as a code with its values (absent from older events). */
      because?: Because;
      /** When revised: directives before and after, topics added and removed, drafts merged by the fit rules. */
      before?: number;
      after?: number;
      added?: number;
      removed?: number;
      merged?: number;
      complexity?: QuestionComplexity;
    }
  | {
      type: "supervision.first_round_decomposition";
      /** Directives the planner proposed, before the count rules; finalCount is what was stored. */
      initialCount: number;
      finalCount: number;
      revised: boolean;
      complexity: QuestionComplexity;
      /** What the count rules changed (generation and revision together). */
      added: number;
      removed: number;
      merged: number;
    }
  | { type: "supervision.round_started"; round: number; pending: number }
  | { type: "supervision.think"; round: number; text: string }
  | {
      type: "supervision.assessment";
      round: number;
      method: "llm" | "heuristic";
      overallCoverage: number;
      shouldContinue: boolean;
      rationale: string;
      /** A heuristic `rationale` (the code's words) as a code with its values; a model's has none. */
      because?: Because;
      followUps: string[];
    }
  /** Every researched directive was clearly covered: the round stopped without the model's assessment. */
  | {
      type: "supervision.heuristic_sufficient";
      round: number;
      directives: number;
      confidence: number;
      reason: string;
      /** `reason` as a code with its values (absent from older events). */
      because?: Because;
    }
  | {
      type: "supervision.round_completed";
      round: number;
      decision: "continue" | "stop";
      reason: string;
      /** `reason` as a code with its values (absent from older events and old plans' stops). */
      because?: Because;
      /** The round as stored with its decision, so a page can show it without re-reading the run (absent from older events). */
      record?: SupervisionRoundRecord;
    }
  | { type: "plan.awaiting_review"; directives: number }
  | {
      type: "plan.approved";
      edited: boolean;
      /** The person's edits as applied (a new topic retitles; dropped ones are skipped); absent from older events. */
      changes?: PlanChange[];
    }
  // directives
  | {
      type: "directive.created";
      directiveId: string;
      round: number;
      topic: string;
      /** The short plain title (absent from events stored before titles). */
      title?: string;
      /** The rest of the directive as stored, so a page can show it without re-reading the run (absent from older events). */
      perspective?: string | null;
      evidenceNeeded?: string | null;
      directiveType?: "initial" | "follow-up" | "user" | "inherited";
      rationale?: string | null;
      priority: DirectivePriority;
      origin: "supervisor" | "user";
    }
  | { type: "directive.duplicate_skipped"; topic: string; duplicateOf: string; similarity?: number }
  /** A proposed directive not stored: vaguer than an earlier one, or over the per-round or total cap. */
  | {
      type: "directive.rejected";
      round: number;
      topic: string;
      reason: string;
      /** `reason` as a code with its values (absent from older events). */
      because?: Because;
      similarTo?: string;
    }
  /** A pending directive never run (e.g. added after supervision finished). */
  | { type: "directive.skipped"; directiveId: string; reason: string; because?: Because }
  /** The owner asked for the report now: research stopped with `researched` directives done. */
  | { type: "supervision.stopped_early"; reason: string; researched: number }
  /** A low-priority user directive still queued after `lowPriorityUserMaxRounds` rounds: skipped. */
  | { type: "directive.aged_out"; directiveId: string; round: number; addedInRound: number; topic: string }
  | { type: "directive.started"; directiveId: string }
  | {
      type: "directive.completed";
      directiveId: string;
      sources: number;
      /** The directive's findings as stored (compressed, or its raw notes); absent from older events. */
      findings?: string;
    }
  | { type: "directive.failed"; directiveId: string; error: string }
  // researchers
  | {
      type: "researcher.search";
      directiveId: string;
      query: string;
      /** The query's language as detectLanguage reads it (en, de, zh): researchers search in several. */
      language?: string;
    }
  | {
      type: "researcher.search_results";
      directiveId: string;
      query: string;
      results: number;
      fresh: number;
      duplicates: number;
      errors: { provider: string; message: string }[];
    }
  | {
      type: "researcher.fetch";
      directiveId: string;
      url: string;
      ok: boolean;
      reason?: string;
      /** The reason as a code (`fetch_*`) the UI says in its language; `reason` stays for the API. */
      because?: Because;
      chars?: number;
      /** The text came from the run's stored snapshot (read before, or full text from search), not a new fetch. */
      fromStore?: boolean;
    }
  /**
   * extract_content refused before any request: the URL appeared nowhere the run may read from
   * (search results, the question or brief, links on pages read) — e.g. one a model composed.
   */
  | {
      type: "researcher.fetch_refused";
      directiveId: string;
      url: string;
      reason: string;
      because?: Because;
    }
  | { type: "researcher.think"; directiveId: string; text: string }
  | { type: "researcher.reflection_injected"; directiveId: string; after: string }
  /**
   * A stop rule checked in code ended the research: enough relevant sources read, the last two
   * searches overlapping at or above the threshold, or the tool budget spent. `researcher.complete`
   * follows with the same reason.
   */
  | { type: "researcher.stopped"; directiveId: string; reason: StopRule; counts: StopCounts }
  | { type: "researcher.complete"; directiveId: string; reason: string; toolCalls: number }
  /** A refresh re-fetched the sources the previous version cited (lib/jobs/source-recheck.ts). */
  | { type: "sources.rechecked"; unchanged: number; changed: number; gone: number }
  | {
      type: "source.added";
      sourceId: string;
      directiveId: string;
      url: string;
      title: string;
      domain: string;
      quality: string;
      /** Where it came from (search provider or `fetch`); absent from older events. */
      provider?: string;
    }
  | { type: "compression.retry"; directiveId: string; attempt: number; droppedMessages: number }
  | { type: "compression.completed"; directiveId: string; fallback: boolean; chars: number }
  // report
  | { type: "report.started" }
  | { type: "report.delta"; text: string }
  | { type: "report.citations"; kept: number; removedUnknown: number; flattenedLinks: number }
  | {
      type: "report.support_checked";
      supported: number;
      partially_supported: number;
      unsupported: number;
      unchecked: number;
      /** Unsupported citations marked in the report, or removed from it (strictCitations). */
      marked?: number;
      removed?: number;
    }
  /** A `[Title](URL) [N]` link whose URL was not source N's, rewritten to source N's URL. */
  | { type: "report.link_corrected"; sourceId: string; from: string; to: string }
  | {
      type: "report.completed";
      chars: number;
      citations: number;
      partial: boolean;
      /**
       * The report as stored: its Markdown, citation stats and each citation's verdict, so a page
       * following the run shows the finished report without re-reading it (absent from older events).
       */
      markdown?: string;
      citationStats?: Record<string, unknown>;
      verdicts?: ReportCitationVerdict[];
    }
  | { type: "token_limit.retry"; phase: string; attempt: number; removedChars: number; budgetChars: number }
  // knowledge and accounting
  | { type: "knowledge.extracted"; count: number; failed?: boolean; reason?: string }
  /** A step fell back (degradations.ts): which step, the model, what the provider said, the notice shown. */
  | ({ type: "run.degraded" } & Omit<Degradation, "at">)
  | { type: "model.retry"; role: string; attempt: number; status?: number; delayMs: number }
  /** A call went on to the next model of its role's chain (`from` failed, or its provider is paused). */
  | { type: "model.failover"; role: string; from: string; to: string; reason: FailoverReason; detail: string }
  | {
      type: "usage.updated";
      inputTokens: number;
      outputTokens: number;
      cost: number;
      /** The whole snapshot (by role and model), so a page shows it without re-reading the run (absent from older events). */
      usage?: UsageSnapshot;
    }
  /** After the report: a follow-up question about it (lib/jobs/questions), written after the run's end. */
  | { type: "question.asked"; questionId: string; question: string }
  | {
      type: "question.answered";
      questionId: string;
      status: "answered" | "not_in_sources";
      citations: number;
    }
  | { type: "question.failed"; questionId: string; reason: string; because?: Because };

export type ResearchEventType = ResearchEvent["type"];

/** One plan-review edit of a proposed directive, as stored. */
export interface PlanChange {
  directiveId: string;
  topic?: string;
  title?: string;
  priority?: DirectivePriority;
  dropped?: boolean;
}

/** One citation of the stored report with its verdict, as the run's JSON shows it (no passage). */
export interface ReportCitationVerdict {
  number: number;
  sourceId: string;
  sentence: string;
  support: CitationSupport;
  reason: string | null;
  /** The reason as data, said in the reader's language (absent from older events). */
  because?: Because | null;
}
export type EventOf<T extends ResearchEventType> = Extract<ResearchEvent, { type: T }>;

/** Streamed live but not stored row by row; the final report is stored instead. */
export const transientEventTypes: ReadonlySet<ResearchEventType> = new Set(["report.delta"]);
export type TransientEvent = EventOf<"report.delta">;
/** The events that become run_events rows: every one but the transient ones. */
export type StoredEvent = Exclude<ResearchEvent, TransientEvent>;

export function isTransientEvent(event: ResearchEvent): event is TransientEvent {
  return transientEventTypes.has(event.type);
}

export const terminalEventTypes: ReadonlySet<ResearchEventType> = new Set([
  "run.completed",
  "run.failed",
  "run.cancelled",
]);

/** The last event of every run: exactly one of these, written together with the run's end. */
export type TerminalEvent = EventOf<"run.completed"> | EventOf<"run.failed"> | EventOf<"run.cancelled">;

/**
 * What a terminal event makes of the run row, so the status and the event can never disagree:
 * completed runs reach phase `done`, a failure's reason is the run's error.
 */
export function runEndOf(event: TerminalEvent): {
  status: Extract<RunStatus, "completed" | "failed" | "cancelled">;
  phase?: RunPhase;
  error: string | null;
  errorBecause: Because | null;
} {
  switch (event.type) {
    case "run.completed":
      return { status: "completed", phase: "done", error: null, errorBecause: null };
    case "run.failed":
      return { status: "failed", error: event.reason, errorBecause: event.because ?? null };
    case "run.cancelled":
      return { status: "cancelled", error: null, errorBecause: null };
  }
}

/** Where the engine sends events; the worker's sink persists then publishes. */
export interface EventSink {
  emit(event: ResearchEvent): Promise<void>;
  /** Several stored events at once, in order (one write where the sink can); absent: one by one. */
  emitMany?(events: readonly StoredEvent[]): Promise<void>;
}

/** Emits `events` in order, together when the sink can. */
export async function emitAll(sink: EventSink, events: readonly StoredEvent[]): Promise<void> {
  if (!events.length) return;
  if (sink.emitMany) return sink.emitMany(events);
  for (const e of events) await sink.emit(e);
}
