"use client";

import { useTranslations } from "next-intl";
import { useActionState, useState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { createRunAction } from "@/lib/server/actions/runs";
import type { PresetName, RunFormOptions } from "@/lib/server/runs/form";
import { useActionErrorText } from "./action-error";
import { asText, defaultStart, type FormStart } from "./home/form-start";
import { LibraryNotice } from "./home/library-notice";
import { Presets } from "./home/presets";
import { QuestionField } from "./home/question-field";
import { type OptionValues, RunOptions } from "./home/run-options";

const idle: ActionState = { status: "idle" };

/**
 * Starts a run through the createRunAction server action: a plain form post, so it also works
 * before the page's JavaScript has loaded. Choosing a preset refills the numbers under Options;
 * `basePreset` tells the server which preset those numbers were filled for (see lib/server/runs/form.ts).
 */
export function NewRunForm({
  disabled,
  options,
  initialQuestion = "",
  start,
}: {
  disabled?: boolean;
  options: RunFormOptions;
  /** The question to start from ("Edit question" on a finished run's page). */
  initialQuestion?: string;
  /** The preset and options to start from (an earlier run's, for "Edit question"); else the defaults. */
  start?: FormStart;
}) {
  const [state, formAction, pending] = useActionState(createRunAction, idle);
  const [question, setQuestion] = useState(initialQuestion);
  const [initial] = useState(() => start ?? defaultStart(options));
  const [preset, setPreset] = useState<PresetName>(initial.preset);
  const [values, setValues] = useState<OptionValues>(initial.values);
  const t = useTranslations("home.form");
  const errorText = useActionErrorText();
  const error = state.status === "error" ? errorText(state) : undefined;

  function choosePreset(next: PresetName) {
    setPreset(next);
    setValues((v) => ({ ...v, numbers: asText(options.presets[next]) }));
  }

  return (
    <form action={formAction} className="space-y-4" aria-label={t("label")}>
      <QuestionField value={question} onChange={setQuestion} error={error} />
      <input type="hidden" name="basePreset" value={preset} />
      <Presets options={options} value={preset} onChange={choosePreset} />
      <RunOptions options={options} values={values} onChange={setValues} />
      <LibraryNotice options={options} selected={values.providers} />
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="submit"
          disabled={disabled || pending}
          className="rounded-lg bg-zinc-900 px-4 py-2 font-medium text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
        >
          {pending ? t("starting") : t("start")}
        </button>
        <p aria-live="polite" className="text-sm text-muted">
          {pending ? t("creating") : ""}
        </p>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}
