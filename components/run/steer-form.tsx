"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { terminalRunStatuses } from "@/lib/research/ui";
import { steerAction } from "@/lib/server/actions/run-control";
import { ActionMessage, RunIdField } from "./action-message";
import { useRunAction } from "./post-run-action";
import { PrioritySelect } from "./priority-select";
import type { RunViewJson } from "./types";

/** Phases in which a new directive would never be researched: the report is being written. */
const closedPhases = new Set(["synthesis", "knowledge", "done"]);

/** Whether the run still takes directives (the server refuses them with 409 past this point). */
export function canSteer(run: Pick<RunViewJson, "status" | "phase" | "finishRequested">): boolean {
  return (
    !terminalRunStatuses.includes(run.status) && !closedPhases.has(run.phase ?? "") && !run.finishRequested
  );
}

/**
 * Steering: the person adds a directive. It joins the queue of the research under way (ahead of
 * the supervisor's own topics unless it is low priority) and starts when a researcher is free; the
 * confirmation says so and follows the directive as a researcher takes it up and finishes it.
 */
export function SteerForm({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const { state, formAction, pending } = useRunAction(steerAction, onChanged);
  const t = useTranslations("steer");
  const words = useTranslations("run.steer");
  const id = useId();
  if (!canSteer(run)) {
    return (
      <p className="text-sm text-muted" data-testid="steer-closed">
        {terminalRunStatuses.includes(run.status) ? words("ended") : words("writing")}
      </p>
    );
  }
  if (run.status === "awaiting_plan_review") {
    return <p className="text-sm text-muted">{words("inReview")}</p>;
  }
  const added = state.status === "ok" ? run.directives.find((d) => d.topic === state.data?.topic) : undefined;
  return (
    <form action={formAction} aria-labelledby={`${id}-title`} className="space-y-2 text-sm">
      <h3 id={`${id}-title`} className="font-medium">
        {words("title")}
      </h3>
      <RunIdField runId={run.id} />
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-0 flex-1 basis-56 flex-col gap-1">
          <label htmlFor={`${id}-topic`}>{words("topic")}</label>
          <input
            id={`${id}-topic`}
            name="topic"
            required
            minLength={5}
            maxLength={2000}
            placeholder={words("placeholder")}
            className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-priority`}>{words("priority")}</label>
          <PrioritySelect id={`${id}-priority`} name="priority" />
        </div>
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-60 dark:bg-zinc-100 dark:text-zinc-900"
        >
          {words("submit")}
        </button>
      </div>
      <ActionMessage
        state={state}
        ok={
          <p className="text-green-800 dark:text-green-300" data-testid="steer-confirmation">
            {state.status === "ok" &&
              t(steerOutcome(added?.status), { title: added?.title ?? String(state.data?.topic ?? "") })}
          </p>
        }
      />
    </form>
  );
}

/** Which confirmation fits the added directive's state (pending until the view shows it). */
function steerOutcome(status: string | undefined): "queued" | "running" | "done" | "closed" {
  if (status === undefined || status === "pending") return "queued";
  if (status === "running" || status === "done") return status;
  return "closed";
}
