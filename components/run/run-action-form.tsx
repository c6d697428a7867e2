"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { ActionMessage, RunIdField } from "./action-message";

const idle: ActionState = { status: "idle" };

type RunAction = (state: ActionState, form: FormData) => Promise<ActionState>;

/**
 * One button that starts something from a run (a deeper run, a new version) as a server-action
 * form, so it posts before hydration; the action redirects to what it started or says why not.
 */
export function RunActionForm({
  runId,
  action,
  words,
  testId,
  question,
}: {
  runId: string;
  action: RunAction;
  words: { label: string; pending: string; hint: string };
  testId: string;
  question?: string;
}) {
  const [state, formAction, pending] = useActionState(action, idle);
  const t = useTranslations("run.action");
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2 text-sm" data-testid={testId}>
      <RunIdField runId={runId} />
      {question && <input type="hidden" name="question" value={question} />}
      <button
        type="submit"
        disabled={pending}
        className="rounded border border-zinc-400 px-3 py-1 disabled:opacity-60 dark:border-zinc-600"
      >
        {pending ? words.pending : words.label}
      </button>
      <span className="text-xs text-muted">{words.hint}</span>
      <ActionMessage state={state} okText={t("started")} />
    </form>
  );
}
