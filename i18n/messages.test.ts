import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import en from "../messages/en.json";
import { defaultLocale, locales } from "./locale";

/** Every message of a module, by its dotted key. */
function flatten(tree: object, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value]] : flatten(value, `${prefix}${key}.`),
  );
}

describe("the English message module", () => {
  it("is the default and only locale for now", () => {
    expect(defaultLocale).toBe("en");
    expect(locales).toEqual(["en"]);
  });

  it("formats plurals by count", () => {
    const t = createTranslator({ locale: "en", messages: en, namespace: "common" });
    expect(t("rounds", { count: 1 })).toBe("1 round");
    expect(t("rounds", { count: 3 })).toBe("3 rounds");
    expect(t("sources", { count: 0 })).toBe("0 sources");
    expect(t("citations", { count: 1 })).toBe("1 citation");
  });

  it("holds only messages that parse as ICU", () => {
    const failures: string[] = [];
    const t = createTranslator({
      locale: "en",
      messages: en,
      onError: (error) => failures.push(error.message),
    });
    for (const [key, message] of flatten(en)) {
      // A value for each argument the message names; formatting fails on a malformed message.
      const values = Object.fromEntries([...message.matchAll(/\{\s*(\w+)/g)].map((m) => [m[1], 2]));
      (t as (k: string, v: object) => string)(key, values);
    }
    expect(failures).toEqual([]);
  });
});
