"use client";

import { useTranslations } from "next-intl";
import { authPost } from "../api-client";
import { useFormState } from "../use-form-state";

/** Ends the session, then a full load of /sign-in so nothing of the signed-in pages stays on screen. */
export function SignOutButton() {
  const { busy, error, run } = useFormState();
  const t = useTranslations("accountMenu");

  const signOut = () =>
    run(
      async () => {
        await authPost("/sign-out");
        window.location.assign("/sign-in");
      },
      { keepBusy: true },
    );

  return (
    <>
      <button
        type="button"
        onClick={signOut}
        disabled={busy}
        className="rounded border border-zinc-300 px-2 py-0.5 hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        {busy ? t("signingOut") : t("signOut")}
      </button>
      {error && (
        <span role="alert" className="text-red-700 dark:text-red-400">
          {t("signOutFailed", { error })}
        </span>
      )}
    </>
  );
}
