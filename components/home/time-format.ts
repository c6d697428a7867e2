/**
 * Dates and durations as the app shows them, in the page's language: relative in words, absolute
 * in UTC, durations in short units — all through Intl, so a new locale needs only its messages
 * (`format.*`). The plain functions default to English (as before the languages work); components
 * take them bound to the page's locale from `useTimeFormat`.
 */
import { useLocale, useTranslations } from "next-intl";

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** The words around numbers: messages/<locale>.json's `format` block, English by default. */
export interface TimeWords {
  justNow: string;
  utc: (time: string) => string;
  seconds: (seconds: number) => string;
  minutes: (minutes: number) => string;
  hours: (hours: number) => string;
  hoursMinutes: (hours: number, minutes: number) => string;
}

const englishWords: TimeWords = {
  justNow: "just now",
  utc: (time) => `${time} UTC`,
  seconds: (s) => `${s} s`,
  minutes: (m) => `${m} min`,
  hours: (h) => `${h} h`,
  hoursMinutes: (h, m) => `${h} h ${m} min`,
};

/** English dates read day-month-year with a 24-hour clock ("1 Mar 2026, 12:00"), as they always have. */
const dateLocale = (locale: string) => (locale === "en" ? "en-GB" : locale);

/** "3 minutes ago", "yesterday", "just now" (in German "vor 3 Minuten", "gestern", …). */
export function relativeTime(
  date: Date,
  now: Date = new Date(),
  locale = "en",
  words = englishWords,
): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return words.justNow;
}

/** "25 Nov 2026, 08:04 UTC": the server cannot know the reader's time zone before hydration. */
export function absoluteTime(date: Date, locale = "en", words = englishWords): string {
  const text = new Intl.DateTimeFormat(dateLocale(locale), {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(date);
  return words.utc(text);
}

/** "45 s", "12 min", "1 h 5 min" (the messages format each number for the locale). */
export function formatDuration(ms: number, words = englishWords): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return words.seconds(seconds);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return words.minutes(minutes);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? words.hoursMinutes(hours, rest) : words.hours(hours);
}

/** How long the run took, or has been running; null before it started. */
export function runDuration(
  run: { startedAt: Date | null; finishedAt: Date | null },
  now: Date = new Date(),
  words = englishWords,
): { text: string; ongoing: boolean } | null {
  if (!run.startedAt) return null;
  const end = run.finishedAt ?? now;
  return { text: formatDuration(end.getTime() - run.startedAt.getTime(), words), ongoing: !run.finishedAt };
}

/** The words of a locale from its `format` messages (a next-intl translator for that namespace). */
export function timeWords(
  t: (key: keyof TimeWords, values?: Record<string, string | number>) => string,
): TimeWords {
  return {
    justNow: t("justNow"),
    utc: (time) => t("utc", { time }),
    seconds: (seconds) => t("seconds", { seconds }),
    minutes: (minutes) => t("minutes", { minutes }),
    hours: (hours) => t("hours", { hours }),
    hoursMinutes: (hours, minutes) => t("hoursMinutes", { hours, minutes }),
  };
}

/** The functions above bound to the page's locale and its `format` messages. */
export function useTimeFormat() {
  const locale = useLocale();
  const t = useTranslations("format");
  const words = timeWords(t as Parameters<typeof timeWords>[0]);
  return {
    relativeTime: (date: Date, now?: Date) => relativeTime(date, now, locale, words),
    absoluteTime: (date: Date) => absoluteTime(date, locale, words),
    runDuration: (run: Parameters<typeof runDuration>[0], now?: Date) => runDuration(run, now, words),
    number: (value: number) => new Intl.NumberFormat(locale).format(value),
  };
}
