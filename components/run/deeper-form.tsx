"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { researchDeeperAction } from "@/lib/server/actions/lineage";
import { ActionMessage, RunIdField } from "./action-message";

const idle: ActionState = { status: "idle" };

/**
 * "Research this deeper": a server-action form (it posts before hydration) that starts a child run
 * seeded with this run's sources and findings; with `question`, that question is researched in the
 * run's context (a follow-up its sources could not answer).
 */
export function DeeperForm({ runId, question }: { runId: string; question?: string }) {
  const t = useTranslations("lineage");
  const [state, formAction, pending] = useActionState(researchDeeperAction, idle);
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2 text-sm" data-testid="deeper-form">
      <RunIdField runId={runId} />
      {question && <input type="hidden" name="question" value={question} />}
      <button
        type="submit"
        disabled={pending}
        className="rounded border border-zinc-400 px-3 py-1 disabled:opacity-60 dark:border-zinc-600"
      >
        {pending ? t("starting") : t("deeper")}
      </button>
      <span className="text-xs text-muted">{question ? t("deeperQuestionHint") : t("deeperHint")}</span>
      <ActionMessage state={state} />
    </form>
  );
}
