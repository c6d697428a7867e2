"use client";

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
      <p className="text-muted">
        Lost a device, or shared a token by mistake? Sign out everywhere: every session ends, this one too,
        and every API token stops working.
      </p>
      {confirming ? (
        <div className="flex flex-wrap items-center gap-2">
          <span role="alert">Sign out every session and revoke all your API tokens?</span>
          <button type="button" disabled={busy} onClick={signOutEverywhere} className={smallButton}>
            {busy ? "Signing out…" : "Yes, sign out everywhere"}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)} className={smallButton}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} className={smallButton}>
          Sign out everywhere
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
