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

  it("tells apart the limits one code covers by the detail that names them, in every language", () => {
    const german = translator("de", de as unknown as typeof en);
    const chinese = translator("zh", zh as unknown as typeof en);
    const say = (details: object, code = "rate_limited") => ({ code, message: "English.", details });
    expect(localizedError(say({ inProgress: 2, maxConcurrentRuns: 2 }), "de", german)).toBe(
      "Sie haben 2 Durchläufe in Arbeit (Ihr Limit ist 2). Warten Sie, bis einer fertig ist, oder brechen Sie einen ab.",
    );
    expect(localizedError(say({ spentUsd: 12.5, monthlyCostLimitUsd: 10 }), "de", german)).toMatch(
      /diesen Monat 12,50\s\$ gekostet .* Monatslimit von 10,00\s\$/,
    );
    expect(localizedError(say({ maxActive: 2, maxQueued: 5 }), "zh", chinese)).toContain(
      "2 个运行中，5 个等待中",
    );
    const quota = {
      quota: "library",
      variable: "QUOTA_LIBRARY_MB",
      usedMb: 199.5,
      limitMb: 200,
      addingMb: 1.25,
    };
    expect(localizedError(say(quota, "quota_exceeded"), "de", german)).toBe(
      "Der Text Ihrer Bibliothek würde sein Limit von 200 MB (QUOTA_LIBRARY_MB) überschreiten: 199,5 MB sind gespeichert, und dies fügt 1,25 MB hinzu. Löschen Sie Dokumente, die Sie nicht mehr brauchen, oder bitten Sie den Betrieb, das Limit zu erhöhen.",
    );
    expect(localizedError(say({ status: "running" }, "conflict"), "de", german)).toBe(
      "Dieser Durchlauf ist noch nicht beendet. Brechen Sie ihn zuerst ab und löschen Sie ihn dann.",
    );
    const refused = { reason: "private_address", url: "http://10.0.0.1/" };
    expect(localizedError(say(refused, "validation_failed"), "zh", chinese)).toBe(
      "无法添加 http://10.0.0.1/：这不是公共地址。",
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
