"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { authPost } from "../api-client";
import { useFormState } from "../use-form-state";
import { EmailField, FormError, PasswordField, SubmitButton } from "./form-parts";

/** Email and password; on success a full page load of `next` (a same-site path checked by the page). */
export function SignInForm({ next }: { next: string }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, error, run } = useFormState();
  const t = useTranslations("auth");

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    await run(
      async () => {
        await authPost("/sign-in/email", { email: email.trim(), password });
        window.location.assign(next);
      },
      { keepBusy: true },
    );
  }

  return (
    <form onSubmit={submit} aria-label={t("signIn.title")} aria-busy={busy} className="space-y-4">
      <EmailField id={`${id}-email`} autoComplete="username" value={email} onValue={setEmail} />
      <PasswordField
        id={`${id}-password`}
        label={t("password")}
        kind="current"
        value={password}
        onValue={setPassword}
      />
      <FormError message={error} />
      <SubmitButton busy={busy} busyLabel={t("signIn.busy")}>
        {t("signIn.submit")}
      </SubmitButton>
    </form>
  );
}
