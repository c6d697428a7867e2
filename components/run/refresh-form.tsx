"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { refreshRunAction } from "@/lib/server/actions/refresh";
import { ActionMessage, RunIdField } from "./action-message";

const idle: ActionState = { status: "idle" };

/**
 * "Refresh": a server-action form (it posts before hydration) that starts a new version of this
 * report — its cited sources fetched again and compared, then research for what is new. "Run
 * again" stays for a fresh, unrelated run.
 */
export function RefreshForm({ runId }: { runId: string }) {
  const t = useTranslations("refresh");
  const [state, formAction, pending] = useActionState(refreshRunAction, idle);
  return (
    <form
      action={formAction}
      className="flex flex-wrap items-center gap-2 text-sm"
      data-testid="refresh-form"
    >
      <RunIdField runId={runId} />
      <button
        type="submit"
        disabled={pending}
        className="rounded border border-zinc-400 px-3 py-1 disabled:opacity-60 dark:border-zinc-600"
      >
        {pending ? t("starting") : t("refresh")}
      </button>
      <span className="text-xs text-muted">{t("hint")}</span>
      <ActionMessage state={state} />
    </form>
  );
}
