"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

/**
 * "How this was researched": the brief, directives, activity log, supervision rounds and usage,
 * collapsed under the progress card. Its panels stay mounted while closed, so they keep up with
 * the run and open on the latest state.
 */
export function ResearchDetails({ children }: { children: ReactNode }) {
  const t = useTranslations("details");
  return (
    <details
      data-testid="research-details"
      className="group rounded-lg border border-zinc-200 dark:border-zinc-800"
    >
      <summary className="cursor-pointer select-none px-4 py-3 font-medium">
        {t("summary")}
        <span className="ml-2 text-sm font-normal text-muted">{t("hint")}</span>
      </summary>
      <div className="space-y-8 border-t border-zinc-200 p-4 dark:border-zinc-800">{children}</div>
    </details>
  );
}
