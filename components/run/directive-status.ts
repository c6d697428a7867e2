/**
 * A directive's status in words, as the run page shows it. The stored status can lag the run's
 * end (a cancelled run leaves its researching directive `running`), so a finished run overrides it:
 * nothing reads "Researching" once the run has stopped.
 */
import { terminalRunStatuses } from "@/lib/research/ui";
import type { ActivityEntry } from "./activity-model";
import { labelOf, type Translate } from "./run-words";
import type { DirectiveView, RunViewJson } from "./types";

/** The engine's reasons for skipping a directive that was open when the research stopped. */
const skippedBecause: Record<string, "run.directiveEnded.byCancel" | "run.directiveEnded.byFinish"> = {
  "the run was cancelled": "run.directiveEnded.byCancel",
  "research was stopped early at the owner's request": "run.directiveEnded.byFinish",
};

export function directiveStatusText(
  directive: Pick<DirectiveView, "id" | "status" | "error">,
  run: Pick<RunViewJson, "status">,
  entries: readonly ActivityEntry[],
  t: Translate,
): string {
  const { status } = directive;
  if ((status === "running" || status === "pending") && terminalRunStatuses.includes(run.status)) {
    return t(`run.directiveEnded.${status}`, { run: run.status });
  }
  if (status === "skipped") {
    const why = entries.findLast(
      (e) =>
        e.directiveId === directive.id && (e.type === "directive.aged_out" || e.type === "directive.skipped"),
    );
    if (why?.event.type === "directive.aged_out") return t("run.directiveEnded.agedOut");
    const reason = why?.event.type === "directive.skipped" ? why.event.reason : directive.error;
    if (!reason) return t("run.directiveStatus.skipped");
    const known = skippedBecause[reason];
    return known ? t(known) : t("run.directiveEnded.skippedBecause", { reason });
  }
  if (status === "failed" && directive.error)
    return t("run.directiveEnded.failedBecause", { error: directive.error });
  return labelOf(t, "run.directiveStatus", status);
}

/** True while the directive's researcher is working (for a live marker). */
export function isResearching(directive: Pick<DirectiveView, "status">, run: Pick<RunViewJson, "status">) {
  return directive.status === "running" && !terminalRunStatuses.includes(run.status);
}
