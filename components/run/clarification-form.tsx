"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { answerClarificationAction } from "@/lib/server/actions/run-control";
import { ActionMessage, RunIdField } from "./action-message";
import { useRunAction } from "./post-run-action";
import type { RunViewJson } from "./types";

/**
 * The engine's clarifying question. Answering lets the run continue with the answer; skipping
 * lets it continue on its own assumptions (the server records that no preference was given).
 */
export function ClarificationForm({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const { state, formAction, pending } = useRunAction(answerClarificationAction, onChanged);
  const t = useTranslations("run");
  const id = useId();
  const fieldError = state.status === "error" ? state.fieldErrors?.answer?.[0] : undefined;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <h2 id={`${id}-title`} className="font-medium">
        {t("clarify.title")}
      </h2>
      <form action={formAction} aria-label={t("clarify.form")} className="space-y-2">
        <RunIdField runId={run.id} />
        <label htmlFor={`${id}-answer`} className="block">
          {run.clarificationQuestion ?? t("clarify.fallback")}
        </label>
        <textarea
          id={`${id}-answer`}
          name="answer"
          rows={3}
          maxLength={4000}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? `${id}-error` : undefined}
          className="w-full rounded border border-zinc-300 bg-white p-2 dark:border-zinc-700 dark:bg-zinc-900"
        />
        {fieldError && (
          <p id={`${id}-error`} className="text-red-700 dark:text-red-400">
            {t("clarify.required")}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button
            type="submit"
            name="intent"
            value="answer"
            disabled={pending}
            className="rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-60 dark:bg-zinc-100 dark:text-zinc-900"
          >
            {t("clarify.answer")}
          </button>
          <button
            type="submit"
            name="intent"
            value="skip"
            disabled={pending}
            className="rounded border border-zinc-400 px-3 py-1 disabled:opacity-60 dark:border-zinc-600"
          >
            {t("clarify.skip")}
          </button>
        </div>
        <ActionMessage
          state={state}
          okText={state.status === "ok" && state.data?.skipped ? t("action.skipped") : t("action.answered")}
        />
      </form>
    </section>
  );
}
