import { describe, expect, it } from "vitest";
import { cutAtWord, directiveTitle, maxTitleChars } from "./directive-title.ts";

describe("directive titles", () => {
  it("keeps a short planner title as it is", () => {
    expect(directiveTitle("Heat pump efficiency in cold climates", "a long topic")).toBe(
      "Heat pump efficiency in cold climates",
    );
  });

  it("removes markup from the planner's title", () => {
    expect(directiveTitle("**Heat pumps** and `COP` <b>data</b> [link](http://x.test)", "t")).toBe(
      "Heat pumps and COP data link",
    );
    expect(directiveTitle("## _Costs_ over ~~time~~", "t")).toBe("Costs over time");
  });

  it("cuts a long title at a word boundary, within the limit", () => {
    const long = "Measured seasonal performance of air-source heat pumps in Nordic homes ".repeat(3);
    const title = directiveTitle(long, "t");
    expect(title.length).toBeLessThanOrEqual(maxTitleChars);
    expect(title.endsWith("…")).toBe(true);
    // The word before the ellipsis is whole: it appears followed by a space in the original.
    const lastWord = title.slice(0, -1).split(" ").at(-1) as string;
    expect(long).toContain(`${lastWord} `);
  });

  it("falls back to the topic's first sentence when the planner gave no title", () => {
    expect(
      directiveTitle("", "Compare installation costs across EU countries. Use 2023 figures where possible."),
    ).toBe("Compare installation costs across EU countries");
    expect(directiveTitle(null, "**Grid** impact").length).toBeLessThanOrEqual(maxTitleChars);
    expect(directiveTitle(null, "**Grid** impact")).toBe("Grid impact");
  });

  it("cuts a single overlong word rather than returning nothing", () => {
    const word = "x".repeat(200);
    expect(cutAtWord(word)).toHaveLength(maxTitleChars);
  });
});
