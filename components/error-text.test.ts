import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { Locale } from "../i18n/locale";
import de from "../messages/de.json";
import en from "../messages/en.json";
import zh from "../messages/zh.json";
import { type ErrorTranslator, localizedError } from "./error-text";

const translator = (locale: Locale, messages: typeof en) =>
  createTranslator({ locale, messages, namespace: "errors" }) as unknown as ErrorTranslator;

describe("errors shown in the person's language", () => {
  it("keeps the API's own English sentence in English", () => {
    const error = { code: "conflict", message: "A run with this question is already running." };
    expect(localizedError(error, "en", translator("en", en))).toBe(error.message);
  });

  it("says the code's message in German and Chinese", () => {
    const error = { code: "not_found", message: "Run not found." };
    expect(localizedError(error, "de", translator("de", de as unknown as typeof en))).toBe(
      "Nicht gefunden. Vielleicht wurde es gelöscht.",
    );
    expect(localizedError(error, "zh", translator("zh", zh as unknown as typeof en))).toBe(
      "未找到。它可能已被删除。",
    );
  });

  it("says the parameters the error's details carry", () => {
    const error = { code: "rate_limited", message: "Too many requests.", details: { retryAfterSeconds: 30 } };
    expect(localizedError(error, "de", translator("de", de as unknown as typeof en))).toBe(
      "Zu viele Anfragen. Versuchen Sie es in 30 Sekunden erneut.",
    );
    expect(localizedError(error, "zh", translator("zh", zh as unknown as typeof en))).toBe(
      "请求过多。请在 30 秒后重试。",
    );
  });

  it("falls back to the plain message when a parameter is missing, and to a general one for unknown codes", () => {
    const limited = { code: "rate_limited", message: "Too many requests.", details: { limit: "runs" } };
    expect(localizedError(limited, "de", translator("de", de as unknown as typeof en))).toBe(
      "Zu viele Anfragen. Warten Sie einen Moment und versuchen Sie es dann erneut.",
    );
    const odd = { code: "http_502", message: "The request failed (HTTP 502)." };
    expect(localizedError(odd, "zh", translator("zh", zh as unknown as typeof en))).toBe(
      "请求失败。请重试。",
    );
    expect(
      localizedError(
        { code: "withDetails", message: "" },
        "de",
        translator("de", de as unknown as typeof en),
      ),
    ).toBe("Die Anfrage ist fehlgeschlagen. Versuchen Sie es erneut.");
  });

  it("says better-auth's errors in the catalogue's words in English too, not better-auth's own", () => {
    const error = { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" };
    expect(localizedError(error, "en", translator("en", en))).toBe("Wrong email or password.");
    const unknown = { code: "SOME_NEW_CODE", message: "Something better-auth said" };
    expect(localizedError(unknown, "en", translator("en", en))).toBe(unknown.message);
  });

  it("translates better-auth's sign-in errors by their code", () => {
    const error = { code: "INVALID_EMAIL_OR_PASSWORD", message: "Wrong email or password." };
    expect(localizedError(error, "de", translator("de", de as unknown as typeof en))).toBe(
      "E-Mail oder Passwort ist falsch.",
    );
  });
});
