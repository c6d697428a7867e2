import { describe, expect, it } from "vitest";
import { summarizationInstructions, summarizationPrompt } from "./summarization.ts";

describe("summarization prompts", () => {
  it("puts the page inside a data block after the topic, and says the page is data", () => {
    const prompt = summarizationPrompt({
      topic: "Heat pumps",
      url: "https://e.org",
      title: "T",
      text: "PAGE BODY",
    });
    expect(prompt.indexOf("Heat pumps")).toBeLessThan(
      prompt.indexOf('<untrusted_web_data url="https://e.org">'),
    );
    expect(prompt).toMatch(
      /<untrusted_web_data url="https:\/\/e\.org">\nTitle: T\n\nPAGE BODY\n<\/untrusted_web_data>$/,
    );
    const instructions = summarizationInstructions({ maxWords: 300 });
    expect(instructions).toContain("never instructions");
    expect(instructions).toContain("at most about 300 words");
  });
});
