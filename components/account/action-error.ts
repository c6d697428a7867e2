/**
 * A server action's error state as the person reads it: by its `code` in the page's language (the
 * action's English sentence in English), like the API's errors (components/error-text.ts).
 */
import { useLocale, useTranslations } from "next-intl";
import type { ActionState } from "@/lib/server/actions/action-state";
import { type ErrorTranslator, localizedError } from "../error-text";

export function useActionError(): (state: ActionState | undefined) => string | null {
  const locale = useLocale();
  const t = useTranslations("errors") as unknown as ErrorTranslator;
  return (state) => (state?.status === "error" ? localizedError(state, locale, t) : null);
}
