import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { errorStatus } from "../lib/errors";
import { becauseCodes } from "../lib/research/ui";
import de from "../messages/de.json";
import en from "../messages/en.json";
import zh from "../messages/zh.json";
import { defaultLocale, type Locale, locales } from "./locale";

// Typed as English: the tests below, not the compiler, check that the others have the same keys
// (a key added to English first must not stop the whole type check).
const catalogues = { en, de, zh } as unknown as Record<Locale, typeof en>;

/** Every message of a module, by its dotted key. */
function flatten(tree: object, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value]] : flatten(value, `${prefix}${key}.`),
  );
}

/** The argument names a message uses (in plurals and selects too) and the rich-text tags it has. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.tag) {
        names.add(`<${el.value}>`);
        walk(el.children);
      } else if (el.type !== TYPE.literal && el.type !== TYPE.pound) {
        names.add(el.value);
      }
      if ("options" in el) for (const option of Object.values(el.options)) walk(option.value);
    }
  };
  walk(parse(message));
  return [...names].sort();
}

describe("the message modules", () => {
  it("has English as the default among en, de and zh", () => {
    expect(defaultLocale).toBe("en");
    expect([...locales]).toEqual(["en", "de", "zh"]);
  });

  it.each(locales)("%s has exactly the English keys, in the English order", (locale) => {
    const keys = flatten(catalogues[locale]).map(([key]) => key);
    expect(keys).toEqual(flatten(en).map(([key]) => key));
  });

  it.each(locales)("%s uses the same ICU arguments and tags as English in every message", (locale) => {
    const theirs = new Map(flatten(catalogues[locale]));
    const differing = flatten(en).flatMap(([key, message]) => {
      const other = theirs.get(key);
      return other !== undefined && argumentsOf(other).join() !== argumentsOf(message).join() ? [key] : [];
    });
    expect(differing).toEqual([]);
  });

  it.each(locales)("%s holds only messages that format", (locale) => {
    const failures: string[] = [];
    const messages = catalogues[locale];
    const t = createTranslator({ locale, messages, onError: (error) => failures.push(error.message) });
    for (const [key, message] of flatten(messages)) {
      const values = Object.fromEntries(
        argumentsOf(message).map((name) =>
          name.startsWith("<") ? [name.slice(1, -1), (chunks: unknown) => chunks] : [name, 2],
        ),
      );
      (t as unknown as { rich: (k: string, v: object) => unknown }).rich(key, values);
    }
    expect(failures).toEqual([]);
  });

  it("has words for every reason code of the engine in every locale", () => {
    for (const locale of locales) {
      const keys = new Set(flatten(catalogues[locale]).map(([key]) => key));
      const missing = becauseCodes.filter((code) => !keys.has(`because.${code}`));
      expect({ locale, missing }).toEqual({ locale, missing: [] });
    }
  });

  it("has a message for every error code of the API in every locale", () => {
    for (const locale of locales) {
      const keys = new Set(flatten(catalogues[locale]).map(([key]) => key));
      const missing = Object.keys(errorStatus).filter((code) => !keys.has(`errors.${code}`));
      expect({ locale, missing }).toEqual({ locale, missing: [] });
    }
  });

  it("formats plurals by each language's rules", () => {
    const t = (locale: Locale) =>
      createTranslator({ locale, messages: catalogues[locale], namespace: "common" });
    expect(t("en")("rounds", { count: 1 })).toBe("1 round");
    expect(t("en")("rounds", { count: 3 })).toBe("3 rounds");
    expect(t("en")("sources", { count: 0 })).toBe("0 sources");
    expect(t("en")("citations", { count: 1 })).toBe("1 citation");
    expect(t("de")("sources", { count: 1 })).toBe("1 Quelle");
    expect(t("de")("sources", { count: 2 })).toBe("2 Quellen");
    expect(t("zh")("sources", { count: 1 })).toBe("1 个来源");
    expect(t("zh")("sources", { count: 5 })).toBe("5 个来源");
  });
});
