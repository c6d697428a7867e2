"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { authPost } from "../api-client";
import { useFormState } from "../use-form-state";
import { EmailField, Field, FormError, PasswordField, SubmitButton } from "./form-parts";

/**
 * Creates an account through better-auth's sign-up (which signs the person in): the first-start
 * admin on /setup, or a new person on /sign-up — with the invitation token from their link, if any.
 */
export function NewAccountForm({
  invite,
  submitLabel,
  label,
}: {
  invite?: string;
  submitLabel: string;
  /** The form's accessible name. */
  label: string;
}) {
  const id = useId();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const { busy, error, setError, run } = useFormState();
  const t = useTranslations("auth");

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (password !== repeat) {
      setError(t("passwordsDiffer"));
      return;
    }
    await run(
      async () => {
        await authPost("/sign-up/email", {
          name: name.trim(),
          email: email.trim(),
          password,
          ...(invite ? { invite } : {}),
        });
        window.location.assign("/");
      },
      { keepBusy: true },
    );
  }

  return (
    <form onSubmit={submit} aria-label={label} aria-busy={busy} className="space-y-4">
      <Field
        id={`${id}-name`}
        label={t("name")}
        autoComplete="name"
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <EmailField id={`${id}-email`} value={email} onValue={setEmail} />
      <PasswordField
        id={`${id}-password`}
        label={t("password")}
        kind="new"
        value={password}
        onValue={setPassword}
      />
      <PasswordField
        id={`${id}-repeat`}
        label={t("repeatPassword")}
        kind="repeat"
        value={repeat}
        onValue={setRepeat}
      />
      <FormError message={error} />
      <SubmitButton busy={busy} busyLabel={t("creatingAccount")}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
