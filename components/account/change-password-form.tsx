"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { authPost } from "../api-client";
import { useFormState } from "../use-form-state";
import { FormError, FormNotice, MIN_PASSWORD, PasswordField, SubmitButton } from "./form-parts";

/** Changes the signed-in person's own password; it needs the current one. Every API token is revoked with it. */
export function ChangePasswordForm() {
  const id = useId();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [signOutOthers, setSignOutOthers] = useState(true);
  const { busy, error, notice, setError, clear, run } = useFormState();
  const t = useTranslations("account.password");

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    clear();
    if (next.length < MIN_PASSWORD) {
      setError(t("tooShort", { min: MIN_PASSWORD }));
      return;
    }
    const done = await run(
      () =>
        authPost("/change-password", {
          currentPassword: current,
          newPassword: next,
          revokeOtherSessions: signOutOthers,
        }),
      {
        notice: signOutOthers ? t("changedSignedOut") : t("changed"),
      },
    );
    if (done) {
      setCurrent("");
      setNext("");
    }
  }

  return (
    <form onSubmit={submit} aria-label={t("form")} aria-busy={busy} className="max-w-sm space-y-4">
      <PasswordField
        id={`${id}-current`}
        label={t("current")}
        kind="current"
        value={current}
        onValue={setCurrent}
      />
      <PasswordField id={`${id}-new`} label={t("new")} kind="new" value={next} onValue={setNext} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={signOutOthers} onChange={(e) => setSignOutOthers(e.target.checked)} />
        {t("signOutOthers")}
      </label>
      <FormError message={error} />
      <FormNotice message={notice} />
      <SubmitButton busy={busy} busyLabel={t("busy")}>
        {t("submit")}
      </SubmitButton>
    </form>
  );
}
