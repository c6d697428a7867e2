"use client";
/**
 * A server action's error state as a person reads it: the same rule as the API's errors
 * (error-text.ts) — in English the action's own sentence, in other languages its code's message.
 */
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import { type ErrorTranslator, localizedError, type ShownError } from "./error-text";

export function useActionErrorText(): (error: ShownError) => string {
  const locale = useLocale();
  const t = useTranslations("errors") as unknown as ErrorTranslator;
  return useCallback((error: ShownError) => localizedError(error, locale, t), [locale, t]);
}
