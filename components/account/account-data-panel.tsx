"use client";

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
        <p className="text-sm text-muted">
          One archive (.tar.gz) with every run&apos;s report (Markdown) and its record (JSON: the run,
          sources, events and directives), your knowledge and your library.
        </p>
        <a
          href="/api/account/export"
          download
          className="inline-block rounded-lg border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Export my data
        </a>
      </div>
      <form aria-label="Delete my account" className="max-w-md space-y-3" onSubmit={remove}>
        <p className="text-sm">
          Deleting your account removes it and everything it owns: runs, reports, sources, knowledge, library
          documents, share links and API tokens. This cannot be undone. Runs still in progress must be
          cancelled first.
        </p>
        <div className="space-y-1">
          <label htmlFor={id} className="block text-sm font-medium">
            Type your email ({email}) to confirm
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
          {busy ? "Deleting…" : "Delete my account"}
        </button>
      </form>
    </div>
  );
}
