// The card's excerpt: the stored passage's sentence that best matches the claim, chosen by words alone.
import { describe, expect, it } from "vitest";
import { bestSentenceIndex, contentWords, passageExcerpt, sentencesOf } from "./best-sentence.ts";
import { pickClaim } from "./citation-card.tsx";

const passage = [
  "Heat pumps move heat rather than make it.",
  "In field trials across Canada, cold-climate units kept a coefficient of performance above 2 at -15 °C.",
  "Gas boilers convert at most 95% of the fuel's energy into heat.",
  "Installation costs vary widely by region and by the state of the house.",
].join(" ");

describe("the best-matching sentence", () => {
  it("is the one sharing the claim's rarer words, not the first", () => {
    const claim = "Cold-climate heat pumps keep a COP above 2 at -15 °C [3].";
    const sentences = sentencesOf(passage).map((s) => s.text);
    expect(sentences).toHaveLength(4);
    expect(bestSentenceIndex(sentences, claim)).toBe(1);
    expect(bestSentenceIndex(sentences, "Installing one costs more in some regions.")).toBe(3);
  });

  it("ignores markers, case and common words", () => {
    expect(contentWords("The COP is above 2 [1][2] in the cold")).toEqual(["cop", "above", "cold"]);
  });

  it("falls back to the first sentence when nothing matches", () => {
    expect(bestSentenceIndex(["One.", "Two."], "zebra")).toBe(0);
  });
});

describe("the excerpt", () => {
  it("highlights that sentence with its short neighbours and keeps the whole passage for show more", () => {
    const e = passageExcerpt(passage, "Gas boilers turn 95% of the fuel into heat.");
    expect(e.match).toBe("Gas boilers convert at most 95% of the fuel's energy into heat.");
    expect(e.before + e.match + e.after).not.toContain("Heat pumps move heat");
    expect(e.cutBefore).toBe(true);
    expect(`${e.full.before}${e.full.match}${e.full.after}`).toBe(passage);
    expect(e.full.match).toBe(e.match);
  });

  it("is the whole passage when it is one short sentence", () => {
    const e = passageExcerpt("COP 2.1 at -15 °C.", "COP above 2");
    expect(e).toMatchObject({
      before: "",
      match: "COP 2.1 at -15 °C.",
      after: "",
      cutBefore: false,
      cutAfter: false,
    });
  });

  it("offsets stay right when the passage has extra spaces", () => {
    const text = "First one here.   Second about turbines.  Third.";
    const e = passageExcerpt(text, "turbines");
    expect(e.match).toBe("Second about turbines.");
    expect(`${e.full.before}${e.full.match}${e.full.after}`).toBe(text);
  });
});

describe("the claim a marker closes", () => {
  const claims = [
    {
      sentence: "Heat pumps keep a COP above 2.",
      support: "supported" as const,
      reason: null,
      passage: "COP 2.1.",
    },
    {
      sentence: "They cost less to run than gas.",
      support: "unsupported" as const,
      reason: null,
      passage: "Prices vary.",
    },
    {
      sentence: "Gas boilers lose efficiency with age.",
      support: "supported" as const,
      reason: null,
      passage: "Older boilers.",
    },
    { sentence: "No passage for this one.", support: "supported" as const, reason: null, passage: null },
  ];

  it("has the marker's verdict and shares most words with its paragraph", () => {
    expect(pickClaim(claims, "supported", "Old gas boilers lose efficiency with age [1].")?.sentence).toBe(
      "Gas boilers lose efficiency with age.",
    );
    expect(pickClaim(claims, "unsupported", "Heat pumps keep a COP above 2 [1].")?.sentence).toBe(
      "They cost less to run than gas.",
    );
  });

  it("falls back to any claim with a passage when none has the verdict", () => {
    expect(pickClaim(claims, "partially_supported", "heat pumps COP")?.sentence).toBe(
      "Heat pumps keep a COP above 2.",
    );
    expect(pickClaim(claims.slice(3), "supported", "x")).toBeUndefined();
  });
});
