/** The pieces every account form is made of: labelled inputs, a submit button with its busy text, the error line. */
import { useTranslations } from "next-intl";
import type { InputHTMLAttributes, ReactNode } from "react";

export const inputClass =
  "w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900";
export const primaryButton =
  "rounded-lg bg-zinc-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900";
export const smallButton =
  "rounded border border-zinc-300 px-2 py-0.5 text-sm hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800";

/** The shortest password better-auth accepts here (lib/server/auth/auth.ts). */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 256;

export function Field({
  id,
  label,
  hint,
  ...input
}: { id: string; label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} className={inputClass} {...input} />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The email field of the account forms; sign-in asks the browser for the saved "username". */
export function EmailField({
  id,
  value,
  onValue,
  autoComplete = "email",
}: {
  id: string;
  value: string;
  onValue: (value: string) => void;
  autoComplete?: "email" | "username";
}) {
  const t = useTranslations("auth");
  return (
    <Field
      id={id}
      label={t("email")}
      type="email"
      autoComplete={autoComplete}
      required
      value={value}
      onChange={(e) => onValue(e.target.value)}
    />
  );
}

/**
 * A password field. "current" is one the person already has; "new" and "repeat" choose one, within
 * the lengths better-auth accepts, and only "new" carries the length hint.
 */
export function PasswordField({
  id,
  label,
  kind,
  value,
  onValue,
}: {
  id: string;
  label: string;
  kind: "current" | "new" | "repeat";
  value: string;
  onValue: (value: string) => void;
}) {
  const choosing = kind !== "current";
  const t = useTranslations("auth");
  return (
    <Field
      id={id}
      label={label}
      type="password"
      autoComplete={choosing ? "new-password" : "current-password"}
      required
      minLength={choosing ? MIN_PASSWORD : undefined}
      maxLength={choosing ? MAX_PASSWORD : undefined}
      hint={kind === "new" ? t("passwordHint", { min: MIN_PASSWORD }) : undefined}
      value={value}
      onChange={(e) => onValue(e.target.value)}
    />
  );
}

export function SubmitButton({
  busy,
  busyLabel,
  disabled,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" disabled={busy || disabled} className={primaryButton}>
      {busy ? busyLabel : children}
    </button>
  );
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

export function FormNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="status" className="text-sm text-green-700 dark:text-green-400">
      {message}
    </p>
  );
}

/** The narrow, centred frame of the sign-in, sign-up and setup pages. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-sm space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {children}
    </div>
  );
}
