"use client";
/**
 * A server action's error as a person reads it: the same rule as the API's errors (error-text.ts)
 * — in English the action's own sentence, in other languages its code's message.
 */
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { type ErrorTranslator, localizedError, type ShownError } from "./error-text";

export function useActionErrorText(): (error: ShownError) => string {
  const locale = useLocale();
  const t = useTranslations("errors") as unknown as ErrorTranslator;
  return useCallback((error: ShownError) => localizedError(error, locale, t), [locale, t]);
}

/** The same for a whole action state: its error's words, or null when it did not fail. */
export function useActionError(): (state: ActionState | undefined) => string | null {
  const text = useActionErrorText();
  return (state) => (state?.status === "error" ? text(state) : null);
}
