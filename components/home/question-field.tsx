"use client";

import { useTranslations } from "next-intl";
import type { KeyboardEvent, ReactNode } from "react";

const kbd = (chunks: ReactNode) => (
  <kbd className="rounded border border-zinc-300 px-1 dark:border-zinc-700">{chunks}</kbd>
);

/**
 * The question box: Enter starts the run, Shift+Enter adds a line (the hint under it says so).
 * An IME composition's Enter confirms the composed text and is left alone.
 */
export function QuestionField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const t = useTranslations("home.question");
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    // requestSubmit runs the browser's validation (required, minLength) like a click would.
    e.currentTarget.form?.requestSubmit();
  }
  return (
    <div className="space-y-1">
      <label htmlFor="question" className="block text-sm font-medium">
        {t("label")}
      </label>
      <textarea
        id="question"
        name="question"
        required
        minLength={3}
        maxLength={4000}
        rows={3}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby="question-hint"
        aria-invalid={error ? true : undefined}
        placeholder={t("placeholder")}
        className="w-full rounded-lg border border-zinc-300 bg-white p-3 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <p id="question-hint" className="text-xs text-muted">
        {t.rich("hint", { kbd })}
      </p>
    </div>
  );
}
