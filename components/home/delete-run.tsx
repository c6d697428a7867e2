"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { deleteRunAction } from "@/lib/server/actions/runs";
import { useActionErrorText } from "../action-error";

const idle: ActionState = { status: "idle" };

/**
 * Delete behind a disclosure that asks for confirmation (works without JavaScript). A run that has
 * not ended cannot be deleted: the disclosure says to cancel it first.
 */
export function DeleteRun({ id, question, ended }: { id: string; question: string; ended: boolean }) {
  const [state, formAction, pending] = useActionState(deleteRunAction, idle);
  const t = useTranslations("home.delete");
  const errorText = useActionErrorText();
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-muted hover:underline" aria-label={t("label", { question })}>
        {t("summary")}
      </summary>
      {ended ? (
        <form action={formAction} className="mt-2 space-y-2">
          <input type="hidden" name="id" value={id} />
          <p>{t("confirm")}</p>
          <button
            type="submit"
            disabled={pending}
            className="rounded bg-red-700 px-3 py-1 font-medium text-white disabled:opacity-40"
          >
            {pending ? t("deleting") : t("permanently")}
          </button>
        </form>
      ) : (
        <p className="mt-2">{t("notEnded")}</p>
      )}
      {state.status === "error" && (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
          {errorText(state)}
        </p>
      )}
    </details>
  );
}
