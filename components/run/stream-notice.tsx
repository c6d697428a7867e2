"use client";

import { useLocale, useTranslations } from "next-intl";
import { type ErrorTranslator, localizedError } from "../error-text";
import type { StreamProblem } from "./use-run-stream";

/** The run page's live updates were refused or stopped: why, and a way to try again. */
export function StreamNotice({ problem, onRetry }: { problem: StreamProblem; onRetry: () => void }) {
  const t = useTranslations("run.stream");
  const errors = useTranslations("errors") as unknown as ErrorTranslator;
  const locale = useLocale();
  const why =
    problem.kind === "refused"
      ? localizedError(problem.error, locale, errors)
      : problem.kind === "status"
        ? t("status", { status: problem.status })
        : t(problem.kind);
  return (
    <div
      role="alert"
      data-testid="stream-notice"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      <p className="flex-1">
        {why} {t("still")}
      </p>
      <button
        type="button"
        onClick={onRetry}
        className="rounded-lg border border-amber-400 px-3 py-1.5 font-medium hover:bg-amber-100 dark:border-amber-600 dark:hover:bg-amber-900"
      >
        {t("retry")}
      </button>
    </div>
  );
}
