"use client";

import { useId, useState } from "react";
import { authPost } from "./auth-request";
import { Field, FormError, MAX_PASSWORD, MIN_PASSWORD, SubmitButton } from "./form-parts";
import { useSubmit } from "./use-submit";

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
  const { busy, error, setError, run } = useSubmit();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (password !== repeat) {
      setError("The two passwords differ: type the same password twice.");
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
        label="Name"
        autoComplete="name"
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <Field
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD}
        maxLength={MAX_PASSWORD}
        hint={`At least ${MIN_PASSWORD} characters.`}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Field
        id={`${id}-repeat`}
        label="Repeat password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD}
        maxLength={MAX_PASSWORD}
        value={repeat}
        onChange={(e) => setRepeat(e.target.value)}
      />
      <FormError message={error} />
      <SubmitButton busy={busy} busyLabel="Creating account…">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
