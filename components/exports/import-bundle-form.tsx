"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { idleState } from "@/lib/server/actions/action-state";
import { importBundleAction } from "@/lib/server/exports/actions";
import { useActionErrorText } from "../action-error";

/**
 * Opens a run bundle (downloaded from this or another instance) as a read-only run of yours; the
 * server checks it as untrusted input and, once stored, opens the new run's page.
 */
export function ImportBundleForm() {
  const [state, formAction, pending] = useActionState(importBundleAction, idleState);
  const t = useTranslations("importBundle");
  const errorText = useActionErrorText();
  return (
    <details className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <summary className="cursor-pointer text-sm font-medium">{t("summary")}</summary>
      <form action={formAction} className="mt-3 flex flex-wrap items-center gap-3">
        <label className="text-sm">
          {t("file")}{" "}
          <input type="file" name="bundle" accept=".json,application/json" required className="text-sm" />
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          {pending ? t("opening") : t("open")}
        </button>
        <p role="status" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
          {state.status === "error" ? errorText(state) : ""}
        </p>
      </form>
    </details>
  );
}
