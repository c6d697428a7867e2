import { describe, expect, it } from "vitest";
import { compressionInstructions, compressionPrompt, formatSourceList } from "./compression.ts";

describe("compression prompts", () => {
  it("asks for findings with numbered citations, the queries made and a supervisor brief", () => {
    const text = compressionInstructions();
    for (const part of [
      "## Findings",
      "## Queries and tool calls made",
      "## Supervisor brief",
      "verbatim",
      "[3]",
      "Gaps",
    ]) {
      expect(text).toContain(part);
    }
  });

  it("numbers the sources and fences the transcript", () => {
    const prompt = compressionPrompt({
      directive: { topic: "Topic", perspective: null, evidenceNeeded: "figures" },
      sources: [{ number: 1, title: "", url: "https://a.org" }],
      transcript: "TRANSCRIPT",
    });
    expect(prompt).toContain("Evidence needed: figures");
    expect(prompt).toContain("[1] https://a.org — https://a.org");
    expect(prompt).toMatch(/<research_transcript>\nTRANSCRIPT\n<\/research_transcript>$/);
    expect(formatSourceList([])).toBe("(no sources were found)");
  });
});
