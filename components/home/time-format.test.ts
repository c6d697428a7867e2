import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { Locale } from "../../i18n/locale";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import { absoluteTime, formatDuration, relativeTime, type TimeWords, timeWords } from "./time-format";

const wordsOf = (locale: Locale, messages: typeof en): TimeWords =>
  timeWords(createTranslator({ locale, messages, namespace: "format" }) as Parameters<typeof timeWords>[0]);

describe("times in the page's language", () => {
  const now = new Date("2026-03-01T12:00:00Z");

  it("says the same in English through the messages as the plain functions", () => {
    const words = wordsOf("en", en);
    expect(relativeTime(new Date("2026-03-01T11:59:50Z"), now, "en", words)).toBe("just now");
    expect(absoluteTime(now, "en", words)).toBe("1 Mar 2026, 12:00 UTC");
    expect(formatDuration(65 * 60_000, words)).toBe("1 h 5 min");
  });

  it("says them in German", () => {
    const words = wordsOf("de", de as unknown as typeof en);
    expect(relativeTime(new Date("2026-03-01T11:57:00Z"), now, "de", words)).toBe("vor 3 Minuten");
    expect(relativeTime(new Date("2026-02-28T11:00:00Z"), now, "de", words)).toBe("gestern");
    expect(relativeTime(now, now, "de", words)).toBe("gerade eben");
    expect(absoluteTime(now, "de", words)).toBe("01.03.2026, 12:00 UTC");
    expect(formatDuration(45_000, words)).toBe("45 s");
  });

  it("says them in Chinese", () => {
    const words = wordsOf("zh", zh as unknown as typeof en);
    expect(relativeTime(new Date("2026-03-01T11:57:00Z"), now, "zh", words)).toBe("3分钟前");
    expect(relativeTime(now, now, "zh", words)).toBe("刚刚");
    expect(formatDuration(65 * 60_000, words)).toBe("1 小时 5 分钟");
    expect(absoluteTime(now, "zh", words)).toMatch(/^2026年3月1日 12:00 UTC$/);
  });
});
