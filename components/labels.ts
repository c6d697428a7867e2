/**
 * The one status label of a run, chosen once for every page (badge, line and list row): its words
 * are the `runState` messages. Raw values stay in the API; people read these.
 */
import type { RunPhase, RunStatus } from "@/lib/research/ui";

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
