/**
 * A directive's status in words, as the run page shows it. The stored status can lag the run's
 * end (a cancelled run leaves its researching directive `running`), so a finished run overrides it:
 * nothing reads "Researching" once the run has stopped.
 */
import { type Because, terminalRunStatuses } from "@/lib/research/ui";
import type { ActivityEntry } from "./activity-model";
import { becauseText } from "./because-text";
import { labelOf, type Translate } from "./run-words";
import type { DirectiveView, RunViewJson } from "./types";

/**
 * The engine's English reasons for skipping a directive, as their codes: a directive's stored reason
 * has no code, and the event that had one may be older than the events the page keeps.
 */
const skippedBecause: Record<string, Because> = {
  "the run was cancelled": { code: "skip_run_cancelled" },
  "research was stopped early at the owner's request": { code: "skip_finished_early" },
  "supervision had finished before this directive could run": { code: "skip_supervision_over" },
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
    const event = why?.event.type === "directive.skipped" ? why.event : undefined;
    const reason = event?.reason ?? directive.error;
    if (!reason) return t("run.directiveStatus.skipped");
    const coded = event?.because ?? skippedBecause[reason];
    // Open when the research stopped, not passed over: "stopped when …" says what happened to it.
    if (coded?.code === "skip_run_cancelled") return t("run.directiveEnded.byCancel");
    if (coded?.code === "skip_finished_early") return t("run.directiveEnded.byFinish");
    return t("run.directiveEnded.skippedBecause", { reason: becauseText(t, coded, reason) });
  }
  if (status === "failed" && directive.error)
    return t("run.directiveEnded.failedBecause", { error: directive.error });
  return labelOf(t, "run.directiveStatus", status);
}

/** True while the directive's researcher is working (for a live marker). */
export function isResearching(directive: Pick<DirectiveView, "status">, run: Pick<RunViewJson, "status">) {
  return directive.status === "running" && !terminalRunStatuses.includes(run.status);
}
