/**
 * Why a schedule paused, in the reader's language: said by the API error it was (its code and
 * details, as every error is: components/error-text.ts); a pause stored before codes keeps its words.
 */
import { type ErrorTranslator, localizedError } from "../error-text";

export interface PausedErrorView {
  code: string;
  details?: unknown;
}

export function pausedText(
  reason: string,
  error: PausedErrorView | null | undefined,
  locale: string,
  t: ErrorTranslator,
): string {
  if (!error || typeof error.code !== "string") return reason;
  return localizedError(
    { code: error.code, message: reason, details: error.details ?? undefined },
    locale,
    t,
  );
}
