import { describe, expect, it } from "vitest";
import { contentWords, queryTerms, segmentedText, words } from "./tokens.ts";

describe("the word tokeniser", () => {
  it("splits unspaced Chinese into words, not one token per sentence", () => {
    const w = words("德国的通货膨胀率在2023年是多少？");
    expect(w).toContain("德国");
    expect(w).toContain("通货");
    expect(w).toContain("2023");
    // Function words and question words carry no topic.
    expect(queryTerms("德国的通货膨胀率是多少？")).toEqual(["德国", "通货", "膨胀", "率"]);
  });

  it("keeps German compounds and umlauts, folds case, drops function words", () => {
    expect(contentWords("Wie hoch war die Inflationsrate in Deutschland für Lebensmittel?")).toEqual([
      "hoch",
      "inflationsrate",
      "deutschland",
      "lebensmittel",
    ]);
    expect(words("ÜBER Größe")).toEqual(["über", "größe"]);
  });

  it("drops elisions and possessives, keeps numbers, and folds full-width forms", () => {
    expect(words("L’économie de l'Europe, Germany's 5.9% ２０２３")).toEqual([
      "économie",
      "de",
      "europe",
      "germany",
      "5.9",
      "2023",
    ]);
  });

  it("joins segmented words with spaces for the database's parser, and repeats nothing in a query", () => {
    expect(segmentedText("東京都の人口")).toBe(words("東京都の人口").join(" "));
    expect(segmentedText("東京都の人口").split(" ").length).toBeGreaterThan(1);
    expect(queryTerms("solar solar panels")).toEqual(["solar", "panels"]);
  });
});
