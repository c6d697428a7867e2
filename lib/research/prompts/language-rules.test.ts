// The report language reaches every prompt that writes words the reader sees: brief, researchers'
// notes, report, knowledge and follow-up answers; `auto` keeps the question's language.
import { describe, expect, it } from "vitest";
import { BRIEF_INSTRUCTIONS, briefInstructions, briefPrompt } from "./brief.ts";
import { citationCheckInstructions } from "./citation-check.ts";
import { compressionInstructions } from "./compression.ts";
import { knowledgeInstructions } from "./knowledge.ts";
import { questionInstructions } from "./questions.ts";
import { LANGUAGE_RULE, languageRule, synthesisInstructions, synthesisPrompt } from "./synthesis.ts";

const synthesis = (language?: "auto" | "de" | "zh") =>
  synthesisPrompt({
    question: "What is a heat pump?",
    brief: "b",
    sources: [],
    findingsBlocks: [],
    language,
  });

describe("report language in the prompts", () => {
  it("keeps the question's language when the setting is auto or absent", () => {
    expect(briefInstructions("auto")).toBe(BRIEF_INSTRUCTIONS);
    expect(languageRule("auto")).toBe(LANGUAGE_RULE);
    expect(synthesisInstructions()).toContain(LANGUAGE_RULE);
    expect(synthesis()).toContain(`Remember: ${LANGUAGE_RULE}`);
    expect(compressionInstructions("auto")).toBe(compressionInstructions());
    expect(questionInstructions()).toContain("answer in the same language as the question");
  });

  it("names the chosen language in every prompt that writes for the reader", () => {
    const german = /German \(Deutsch\), whatever language/;
    expect(briefInstructions("de")).toMatch(german);
    expect(briefPrompt({ question: "What is a heat pump?", knowledge: [], language: "de" })).toMatch(german);
    expect(synthesisInstructions("de")).toContain("WRITE THE ENTIRE REPORT IN GERMAN (DEUTSCH)");
    expect(synthesis("de")).toMatch(/Remember: WRITE THE ENTIRE REPORT IN GERMAN \(DEUTSCH\)/);
    expect(synthesis("de")).not.toContain(LANGUAGE_RULE);
    expect(compressionInstructions("zh")).toMatch(/notes under those headings in Simplified Chinese/);
    expect(knowledgeInstructions("zh")).toMatch(/in Simplified Chinese \(简体中文\), whatever language/);
    expect(questionInstructions("de")).toMatch(/answer in German \(Deutsch\)/);
    // The citation check's reason is shown in the card beside the report's sentence.
    expect(citationCheckInstructions("de")).toMatch(
      /reason .* written in German \(Deutsch\), whatever language/,
    );
    expect(citationCheckInstructions()).toMatch(/written in the language of the sentence it judges\./);
  });
});
