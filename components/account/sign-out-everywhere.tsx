"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { authPost } from "../api-client";
import { useFormState } from "../use-form-state";
import { smallButton } from "./form-parts";

/**
 * Ends every session of the account, this one included, and revokes all its API tokens; asks once
 * more first. Then a full load of /sign-in, so nothing of the signed-in pages stays on screen.
 */
export function SignOutEverywhere() {
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useFormState();
  const t = useTranslations("account.signOutEverywhere");

  const signOutEverywhere = () =>
    run(
      async () => {
        await authPost("/revoke-sessions");
        window.location.assign("/sign-in");
      },
      { keepBusy: true },
    );

  return (
    <div className="max-w-xl space-y-2 text-sm">
      <p className="text-muted">{t("intro")}</p>
      {confirming ? (
        <div className="flex flex-wrap items-center gap-2">
          <span role="alert">{t("ask")}</span>
          <button type="button" disabled={busy} onClick={signOutEverywhere} className={smallButton}>
            {busy ? t("busy") : t("confirm")}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)} className={smallButton}>
            {t("cancel")}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} className={smallButton}>
          {t("button")}
        </button>
      )}
      {error && (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
