"use client";

import { useTranslations } from "next-intl";
import { refreshRunAction } from "@/lib/server/actions/refresh";
import { RunActionForm } from "./run-action-form";

/**
 * "Refresh": starts a new version of this report — its cited sources fetched again and compared,
 * then research for what is new. "Run again" stays for a fresh, unrelated run.
 */
export function RefreshForm({ runId }: { runId: string }) {
  const t = useTranslations("refresh");
  return (
    <RunActionForm
      runId={runId}
      action={refreshRunAction}
      testId="refresh-form"
      words={{ label: t("refresh"), pending: t("starting"), hint: t("hint") }}
    />
  );
}
