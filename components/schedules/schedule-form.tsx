"use client";

import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useActionState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { removeScheduleAction, setScheduleAction } from "@/lib/server/actions/schedules";
import type { ErrorTranslator } from "../error-text";
import { ActionMessage, RunIdField } from "../run/action-message";
import { type PausedErrorView, pausedText } from "./paused-text";

const idle: ActionState = { status: "idle" };

export interface ScheduleFormValue {
  every: "day" | "week" | "month";
  nextRunAt: string | null;
  pausedReason: string | null;
  pausedError: PausedErrorView | null;
}

/**
 * Under a finished report: refresh it every day, week or month (a new version each time), with the
 * next time and, when the owner's limits paused it, why; or remove the schedule. Server-action
 * forms, so they work before the page is hydrated.
 */
export function ScheduleForm({ runId, schedule }: { runId: string; schedule: ScheduleFormValue | null }) {
  const t = useTranslations("schedules");
  const locale = useLocale();
  const errors = useTranslations("errors") as unknown as ErrorTranslator;
  const format = useFormatter();
  const [setState, setAction, setting] = useActionState(setScheduleAction, idle);
  const [removeState, removeAction, removing] = useActionState(removeScheduleAction, idle);
  return (
    <section aria-labelledby="schedule-title" className="space-y-2 text-sm" data-testid="schedule-form">
      <h2 id="schedule-title" className="font-medium">
        {t("title")}
      </h2>
      {schedule ? (
        <p data-testid="schedule-status">
          {t("every", { every: schedule.every })}{" "}
          {schedule.nextRunAt &&
            t("next", {
              at: format.dateTime(new Date(schedule.nextRunAt), { dateStyle: "medium", timeStyle: "short" }),
            })}
        </p>
      ) : (
        <p className="text-muted">{t("none")}</p>
      )}
      {schedule?.pausedReason && (
        <p role="status" className="text-amber-800 dark:text-amber-300" data-testid="schedule-paused">
          {t("paused", { reason: pausedText(schedule.pausedReason, schedule.pausedError, locale, errors) })}
        </p>
      )}
      <form action={setAction} className="flex flex-wrap items-center gap-2">
        <RunIdField runId={runId} />
        <label className="flex items-center gap-2">
          {t("label")}
          <select
            name="every"
            defaultValue={schedule?.every ?? "week"}
            className="rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
          >
            {(["day", "week", "month"] as const).map((every) => (
              <option key={every} value={every}>
                {t("option", { every })}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          disabled={setting}
          className="rounded border border-zinc-400 px-3 py-1 disabled:opacity-60 dark:border-zinc-600"
        >
          {schedule ? t("change") : t("set")}
        </button>
      </form>
      {schedule && (
        <form action={removeAction}>
          <RunIdField runId={runId} />
          <button
            type="submit"
            disabled={removing}
            className="text-red-700 underline disabled:opacity-60 dark:text-red-400"
          >
            {t("remove")}
          </button>
        </form>
      )}
      <ActionMessage state={setState.status !== "idle" ? setState : removeState} />
    </section>
  );
}
