/**
 * A directive's status in words, as the run page shows it. The stored status can lag the run's
 * end (a cancelled run leaves its researching directive `running`), so a finished run overrides it:
 * nothing reads "Researching" once the run has stopped.
 */
import { terminalRunStatuses } from "@/lib/research/ui";
import { directiveStatusLabels, labelFor } from "../labels";
import type { ActivityEntry } from "./activity-model";
import type { DirectiveView, RunViewJson } from "./types";

const endedWhile: Record<string, { running: string; pending: string }> = {
  cancelled: {
    running: "Stopped when the run was cancelled",
    pending: "Not researched: the run was cancelled",
  },
  failed: { running: "Stopped when the run failed", pending: "Not researched: the run failed" },
  completed: { running: "Stopped when the run ended", pending: "Not researched: the run ended first" },
};

/** The engine's reasons for skipping a directive that was open when the research stopped. */
const skippedBecause: Record<string, string> = {
  "the run was cancelled": "Stopped when the run was cancelled",
  "research was stopped early at the owner's request": "Stopped when you asked for the report",
};

export function directiveStatusText(
  directive: Pick<DirectiveView, "id" | "status" | "error">,
  run: Pick<RunViewJson, "status">,
  entries: readonly ActivityEntry[],
): string {
  const { status } = directive;
  if ((status === "running" || status === "pending") && terminalRunStatuses.includes(run.status)) {
    return endedWhile[run.status]?.[status] ?? "Stopped";
  }
  if (status === "skipped") {
    const why = entries.findLast(
      (e) =>
        e.directiveId === directive.id && (e.type === "directive.aged_out" || e.type === "directive.skipped"),
    );
    if (why?.event.type === "directive.aged_out") return "Skipped: waited too many rounds at low priority";
    const reason = why?.event.type === "directive.skipped" ? why.event.reason : directive.error;
    return reason ? (skippedBecause[reason] ?? `Skipped: ${reason}`) : "Skipped";
  }
  if (status === "failed" && directive.error) return `Failed: ${directive.error}`;
  return labelFor(directiveStatusLabels, status);
}

/** True while the directive's researcher is working (for a live marker). */
export function isResearching(directive: Pick<DirectiveView, "status">, run: Pick<RunViewJson, "status">) {
  return directive.status === "running" && !terminalRunStatuses.includes(run.status);
}
