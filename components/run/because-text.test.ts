import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { because } from "@/lib/research/because";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import { becauseText } from "./because-text";
import type { Translate } from "./run-words";

const translator = (locale: "en" | "de" | "zh", messages: object) =>
  createTranslator({ locale, messages: messages as typeof en }) as unknown as Translate;

describe("becauseText", () => {
  it("says a coded reason in the page's language, with its values and a phase in words", () => {
    const why = because("phase_time_limit", { phase: "synthesis", seconds: 600 });
    const written = "The synthesis phase exceeded its time limit of 600 s.";
    expect(becauseText(translator("en", en), why, written)).toBe(
      "Writing the report went over its time limit of 600 s.",
    );
    expect(becauseText(translator("de", de), why, written)).toBe(
      "Das Schreiben des Berichts hat das Zeitlimit von 600 s überschritten.",
    );
    expect(becauseText(translator("zh", zh), why, written)).toBe("撰写报告超过了 600 秒的时间限制。");
  });

  it("keeps someone else's words as they were said, and plural rules per language", () => {
    const said = because("run_error", { said: "Upstream returned 503" });
    expect(becauseText(translator("de", de), said, "x")).toBe(
      "Etwas ist schiefgegangen: Upstream returned 503",
    );
    const once = because("job_given_up", { state: "failed", attempts: 1 });
    expect(becauseText(translator("en", en), once, "x")).toContain("after 1 attempt without");
    expect(
      becauseText(translator("de", de), because("job_given_up", { state: "failed", attempts: 3 }), "x"),
    ).toContain("nach 3 Versuchen");
  });

  it("shows the engine's written words for a reason without a code or with an unknown one", () => {
    const t = translator("de", de);
    expect(becauseText(t, undefined, "cancelled by the user")).toBe("cancelled by the user");
    expect(becauseText(t, { code: "from_a_newer_version" as never }, "written")).toBe("written");
  });
});
