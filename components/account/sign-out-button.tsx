"use client";

import { useState } from "react";
import { authPost, errorText } from "./auth-request";

/** Ends the session, then a full load of /sign-in so nothing of the signed-in pages stays on screen. */
export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signOut() {
    setBusy(true);
    setError(null);
    try {
      await authPost("/sign-out");
      window.location.assign("/sign-in");
    } catch (err) {
      setError(`Sign-out failed: ${errorText(err)}`);
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={signOut}
        disabled={busy}
        className="rounded border border-zinc-300 px-2 py-0.5 hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        {busy ? "Signing out…" : "Sign out"}
      </button>
      {error && (
        <span role="alert" className="text-red-700 dark:text-red-400">
          {error}
        </span>
      )}
    </>
  );
}
