"use client";

import { useCallback, useState } from "react";
import { useErrorText } from "./error-text";

export interface RunOptions<T> {
  /** What to say on success: a sentence, or one made from the answer. */
  notice?: string | ((result: T) => string | null);
  /** A form that navigates away stays busy until the next page replaces it. */
  keepBusy?: boolean;
}

/**
 * The state every client-side form shows: `busy` while one submission runs, then either `error`
 * (the API's sentence, or its code's message in the page's language) or `notice` (what happened). `run` clears both first, so a message always
 * belongs to the latest submission; it resolves true when the action succeeded.
 */
export function useFormState() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const errorText = useErrorText();

  async function run<T>(action: () => Promise<T>, { notice: said, keepBusy = false }: RunOptions<T> = {}) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const result = await action();
      setNotice(typeof said === "function" ? said(result) : (said ?? null));
      if (!keepBusy) setBusy(false);
      return true;
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
      return false;
    }
  }

  /** Empties both messages, e.g. when the person opens another part of the form. */
  const clear = useCallback(() => {
    setError(null);
    setNotice(null);
  }, []);

  return { busy, error, notice, setError, setNotice, clear, run };
}

export type FormState = ReturnType<typeof useFormState>;
