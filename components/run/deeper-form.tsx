"use client";

import { useTranslations } from "next-intl";
import { researchDeeperAction } from "@/lib/server/actions/lineage";
import { RunActionForm } from "./run-action-form";

/**
 * "Research this deeper": starts a child run seeded with this run's sources and findings; with
 * `question`, that question is researched in the run's context (a follow-up its sources could not answer).
 */
export function DeeperForm({ runId, question }: { runId: string; question?: string }) {
  const t = useTranslations("lineage");
  return (
    <RunActionForm
      runId={runId}
      question={question}
      action={researchDeeperAction}
      testId="deeper-form"
      words={{
        label: t("deeper"),
        pending: t("starting"),
        hint: question ? t("deeperQuestionHint") : t("deeperHint"),
      }}
    />
  );
}
