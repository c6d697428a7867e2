import { describe, expect, it } from "vitest";
import { detectLanguage, reportLanguageOf, writeInClause } from "./language.ts";

describe("report language", () => {
  it.each([
    ["How efficient are heat pumps in old houses?", "en"],
    ["Wie effizient sind Wärmepumpen im Altbau?", "de"],
    ["Warum ist die Inflation in der Eurozone gestiegen", "de"],
    ["热泵在老房子里的效率如何？", "zh"],
    ["Was ist the EU AI Act?", "en"],
    ["GPT-5 vs Claude: 哪个更适合写代码？", "zh"],
    ["", "en"],
    ["2024 → 2025 ?", "en"],
  ])("reads %j as %s", (text, lang) => {
    expect(detectLanguage(text)).toBe(lang);
  });

  it("takes the setting over the question, and the question's language for auto", () => {
    expect(reportLanguageOf("de", "What is a heat pump?")).toBe("de");
    expect(reportLanguageOf("auto", "热泵是什么？")).toBe("zh");
    expect(reportLanguageOf(undefined, "Was ist eine Wärmepumpe?")).toBe("de");
  });

  it("tells the model to follow the question for auto and names the chosen language otherwise", () => {
    expect(writeInClause("auto", "the language of the question")).toBe("the language of the question");
    expect(writeInClause("zh", "x")).toMatch(/^Simplified Chinese \(简体中文\), whatever language/);
  });
});
