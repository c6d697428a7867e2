/**
 * An error as a person reads it, in their language. The API answers with a stable English `code`
 * and `message`; in English the page shows that message (it is the most specific sentence), in
 * every other language `errors.<code>` from the messages — or `errors.withDetails.<code>` when the
 * error's `details` carry every parameter that message names (limits, names, seconds).
 */
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import { defaultLocale } from "@/i18n/locale";
import { ApiError, errorText } from "./api-client";

/** What of an error the translation needs: an ApiError, or a server action's error state. */
export interface ShownError {
  code: string;
  message: string;
  details?: unknown;
}

/** The parts of a translator this module uses (next-intl's `t` for the "errors" namespace). */
export interface ErrorTranslator {
  has(key: string): boolean;
  raw(key: string): unknown;
  (key: string, values?: Record<string, string | number>): string;
}

/** The arguments at the top of a message and inside its plural/select arms. */
function argumentNames(message: string): string[] {
  const names: string[] = [];
  const walk = (elements: ReturnType<typeof parse>) => {
    for (const el of elements) {
      if (
        el.type === TYPE.argument ||
        el.type === TYPE.number ||
        el.type === TYPE.plural ||
        el.type === TYPE.select
      ) {
        names.push(el.value);
      }
      if ("options" in el) for (const option of Object.values(el.options)) walk(option.value);
    }
  };
  walk(parse(message));
  return names;
}

/** The details' plain values, the only kind a message can say. */
function detailValues(details: unknown): Record<string, string | number> {
  if (!details || typeof details !== "object") return {};
  return Object.fromEntries(
    Object.entries(details).filter(([, v]) => typeof v === "string" || typeof v === "number"),
  ) as Record<string, string | number>;
}

/**
 * `errors.withDetails.<code>` said with the error's details: one message when every value it names
 * is there; or, where one code covers several limits, variants named by the detail that tells them
 * apart (`rate_limited.inProgress`, `rate_limited.spentUsd`), the first present one with all its values.
 */
function withDetails(error: ShownError, t: ErrorTranslator): string | undefined {
  const key = `withDetails.${error.code}`;
  if (!t.has(key)) return undefined;
  const values = detailValues(error.details);
  const raw = t.raw(key);
  const variants: [string, unknown][] =
    typeof raw === "string"
      ? [[key, raw]]
      : Object.entries(raw as object).flatMap(([name, message]) =>
          name in values ? [[`${key}.${name}`, message] as [string, unknown]] : [],
        );
  const fits = variants.find(
    ([, message]) => typeof message === "string" && argumentNames(message).every((name) => name in values),
  );
  return fits ? t(fits[0], values) : undefined;
}

export function localizedError(error: ShownError, locale: string, t: ErrorTranslator): string {
  // better-auth's codes (UPPER_CASE) come with its own terse English: the catalogue's words instead,
  // in every language, where it has them.
  const authCode = /^[A-Z][A-Z_]+$/.test(error.code) && t.has(error.code);
  if (locale === defaultLocale && error.message && !authCode) return error.message;
  const detailed = error.code === "withDetails" ? undefined : withDetails(error, t);
  if (detailed) return detailed;
  if (error.code !== "withDetails" && t.has(error.code)) return t(error.code);
  return t("unknown");
}

/** `(error) => text` for the page's locale: ApiErrors by code, anything else by its own message. */
export function useErrorText(): (err: unknown) => string {
  const locale = useLocale();
  const t = useTranslations("errors") as unknown as ErrorTranslator;
  return useCallback(
    (err: unknown) => (err instanceof ApiError ? localizedError(err, locale, t) : errorText(err)),
    [locale, t],
  );
}
