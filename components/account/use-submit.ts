"use client";

import { useState } from "react";
import { errorText } from "./auth-request";

/**
 * One form submission at a time: `busy` while it runs, `error` with the API's message when it
 * fails. The action returns normally on success (and usually navigates away).
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(action: () => Promise<void>, { keepBusy = false } = {}): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await action();
      // A form that navigates away stays busy until the next page replaces it.
      if (!keepBusy) setBusy(false);
      return true;
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
      return false;
    }
  }

  return { busy, error, setError, run };
}
