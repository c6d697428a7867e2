/**
 * The engine's words in plain language, defined once for every page: run statuses, phases,
 * directive statuses and priorities, source quality and citation verdicts. Raw values stay in the
 * API; people read these.
 */
import type {
  CitationSupport,
  DirectivePriority,
  DirectiveStatus,
  FailoverReason,
  QualityTier,
  RunPhase,
  RunStatus,
} from "@/lib/research/ui";

export const runStatusLabels: Record<RunStatus, string> = {
  queued: "Waiting to start",
  running: "Researching",
  awaiting_clarification: "Needs your answer",
  awaiting_plan_review: "Plan ready for review",
  completed: "Finished",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** A key of the `runState` messages: the one status label of a run, shown by its badge, line and list row. */
export type RunStateKey =
  | "queued"
  | "awaiting_clarification"
  | "awaiting_plan_review"
  | "preparing"
  | "researching"
  | "writing"
  | "saving"
  | "completed"
  | "failed"
  | "cancelled";

/**
 * The run's state in one word group, from its status and, while it runs, its phase: a running run
 * that writes its report reads "Writing the report" everywhere, never "Researching" in one place.
 */
export function runStateKey(status: RunStatus, phase: RunPhase | null | undefined): RunStateKey {
  if (status !== "running") return status;
  switch (phase) {
    case "clarification":
    case "brief":
      return "preparing";
    case "synthesis":
      return "writing";
    case "knowledge":
    case "done":
      return "saving";
    default:
      return "researching";
  }
}

export const runPhaseLabels: Record<RunPhase, string> = {
  clarification: "Clarifying the question",
  brief: "Writing the research brief",
  supervision: "Researching",
  synthesis: "Writing the report",
  knowledge: "Saving what was learned",
  done: "Done",
};

export const directiveStatusLabels: Record<DirectiveStatus, string> = {
  pending: "Waiting",
  running: "Researching",
  done: "Done",
  failed: "Failed",
  skipped: "Skipped",
};

/** One list of priorities everywhere (steering, plan review, directive cards): most urgent first. */
export const priorityLabels: Record<DirectivePriority, string> = {
  critical: "Critical",
  high: "High",
  normal: "Normal",
  low: "Low",
};

export const qualityLabels: Record<QualityTier, string> = {
  HIGH: "High quality",
  MEDIUM: "Medium quality",
  LOW: "Low quality",
  UNKNOWN: "Quality unknown",
};

export const verdictLabels: Record<CitationSupport, string> = {
  supported: "Supported by the source",
  partially_supported: "Partly supported by the source",
  unsupported: "Not supported by the source",
  unchecked: "Not checked",
};

/** The model roles (usage by role, model choice per role). */
/** Why a call went on to the next model of its chain. */
export const failoverReasonLabels: Record<FailoverReason, string> = {
  auth: "the provider refused the key",
  quota: "the account is out of quota or credit",
  model_not_found: "the provider does not know the model",
  refused: "the provider refused the request",
  unavailable: "the provider stayed unavailable through the retries",
  paused: "the provider is paused after repeated failures",
};

export const modelRoleLabels: Record<string, string> = {
  supervisor: "Supervisor",
  researcher: "Researchers",
  compression: "Condensing findings",
  summarization: "Summarising pages",
  synthesis: "Writing the report",
};

/** Any status or phase, labelled when known (an older row may hold a word this version dropped). */
export function labelFor<K extends string>(
  labels: Record<K, string>,
  value: string | null | undefined,
): string {
  if (!value) return "";
  return (labels as Record<string, string>)[value] ?? value.replaceAll("_", " ");
}
