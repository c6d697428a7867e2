import { describe, expect, it } from "vitest";
import { acceptedLanguages, localeDirection, resolveLocale } from "./locale";

describe("the locale of a request", () => {
  it("takes the saved choice over the cookie, the cookie over Accept-Language, and English last", () => {
    expect(resolveLocale({ saved: "zh", cookie: "de", acceptLanguage: "de" })).toBe("zh");
    expect(resolveLocale({ saved: null, cookie: "de", acceptLanguage: "zh-CN" })).toBe("de");
    expect(resolveLocale({ cookie: undefined, acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.8" })).toBe("zh");
    expect(resolveLocale({})).toBe("en");
  });

  it("skips a saved or cookie value the app has no messages for", () => {
    expect(resolveLocale({ saved: "fr", cookie: "de" })).toBe("de");
    expect(resolveLocale({ saved: "xx", cookie: "../en", acceptLanguage: "de-AT" })).toBe("de");
  });

  it("matches regional and ranked Accept-Language tags, and falls back to English", () => {
    expect(resolveLocale({ acceptLanguage: "de-CH" })).toBe("de");
    expect(resolveLocale({ acceptLanguage: "zh-Hans-CN" })).toBe("zh");
    expect(resolveLocale({ acceptLanguage: "fr;q=0.9, de;q=0.5" })).toBe("de");
    expect(resolveLocale({ acceptLanguage: "de;q=0.2, zh;q=0.8" })).toBe("zh");
    expect(resolveLocale({ acceptLanguage: "fr, ja" })).toBe("en");
    expect(resolveLocale({ acceptLanguage: "*" })).toBe("en");
    expect(resolveLocale({ acceptLanguage: "not a tag!!, ;q=" })).toBe("en");
  });

  it("reads Accept-Language by quality, then order, leaving out q=0", () => {
    expect(acceptedLanguages("en;q=0.5, de, zh;q=0")).toEqual(["de", "en"]);
    expect(acceptedLanguages("")).toEqual([]);
  });

  it("writes right to left only for right-to-left scripts", () => {
    expect(localeDirection("en")).toBe("ltr");
    expect(localeDirection("zh")).toBe("ltr");
    expect(localeDirection("ar-EG")).toBe("rtl");
  });
});
