"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { api } from "../api-client";
import { useFormState } from "../use-form-state";
import { FormError, inputClass } from "./form-parts";

const dangerButton =
  "rounded-lg bg-red-700 px-4 py-2 text-sm font-medium text-white disabled:opacity-40 dark:bg-red-600";

/**
 * "Export my data" (a .tar.gz download) and "Delete my account": the person types their email to
 * confirm; once deleted, a full load of /sign-in so nothing of the signed-in pages stays on screen.
 */
export function AccountDataPanel({ email }: { email: string }) {
  const id = useId();
  const [typed, setTyped] = useState("");
  const { busy, error, run } = useFormState();
  const matches = typed.trim().toLowerCase() === email.toLowerCase();
  const t = useTranslations("account.data");

  async function remove(e: React.FormEvent) {
    e.preventDefault();
    await run(
      async () => {
        await api("/api/account", { method: "DELETE", body: { confirmEmail: typed } });
        window.location.assign("/sign-in");
      },
      { keepBusy: true },
    );
  }

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <p className="text-sm text-muted">{t("exportText")}</p>
        <a
          href="/api/account/export"
          download
          className="inline-block rounded-lg border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          {t("export")}
        </a>
      </div>
      <form aria-label={t("delete")} className="max-w-md space-y-3" onSubmit={remove}>
        <p className="text-sm">{t("deleteText")}</p>
        <div className="space-y-1">
          <label htmlFor={id} className="block text-sm font-medium">
            {t("confirmLabel", { email })}
          </label>
          <input
            id={id}
            type="email"
            autoComplete="off"
            required
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            className={inputClass}
          />
        </div>
        <FormError message={error} />
        <button type="submit" disabled={busy || !matches} className={dangerButton}>
          {busy ? t("deleting") : t("delete")}
        </button>
      </form>
    </div>
  );
}
