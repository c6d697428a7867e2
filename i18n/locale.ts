/**
 * The locales the app has messages for (messages/<locale>.json): adding a language is adding its
 * message file and its tag here. Which one a request gets is decided by `resolveLocale`.
 */
import { match } from "@formatjs/intl-localematcher";

export const locales = ["en", "de", "zh"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en";

/** The cookie that keeps a choice made in the language switcher (also for signed-out pages). */
export const localeCookie = "locale";

/** Each language's name in itself: the switcher shows it, so a reader finds their own. */
export const localeNames: Record<Locale, string> = { en: "English", de: "Deutsch", zh: "中文" };

/** Writing direction for `<html dir>`; none of today's locales is right-to-left, an Arabic one would be. */
const rightToLeft = new Set<string>(["ar", "fa", "he", "ur"]);
export function localeDirection(locale: string): "ltr" | "rtl" {
  return rightToLeft.has(locale.split("-")[0]) ? "rtl" : "ltr";
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}

/**
 * The language tags of an Accept-Language header, most preferred first (by q, then by order);
 * `*` and tags with q=0 are left out, and so is anything that is not a well-formed tag.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const tags = header.split(",").flatMap((part, order) => {
    const [tag, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)).find(Boolean);
    const quality = q ? Number(q[1]) : 1;
    if (!tag || tag === "*" || !(quality > 0)) return [];
    try {
      return [{ tag: Intl.getCanonicalLocales(tag)[0], quality, order }];
    } catch {
      return [];
    }
  });
  return tags.sort((a, b) => b.quality - a.quality || a.order - b.order).map((t) => t.tag);
}

/**
 * The locale of one request: the person's saved choice, else the switcher's cookie, else the best
 * match of the browser's Accept-Language, else English. A saved or cookie value the app has no
 * messages for (an old or hand-made one) is skipped, not trusted.
 */
export function resolveLocale(input: {
  saved?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
}): Locale {
  if (isLocale(input.saved)) return input.saved;
  if (isLocale(input.cookie)) return input.cookie;
  const requested = acceptedLanguages(input.acceptLanguage);
  if (requested.length === 0) return defaultLocale;
  const found = match(requested, locales, defaultLocale, { algorithm: "best fit" });
  return isLocale(found) ? found : defaultLocale;
}
