import { describe, expect, it } from "vitest";
import type { CitationRecord } from "../store.ts";
import {
  contradicted,
  evidenceConfidence,
  isScaffolding,
  verdictsBySource,
  withoutScaffolding,
} from "./knowledge-evidence.ts";

const REPORT = [
  "# Heat pumps against gas boilers",
  "",
  "> **Partial report.** Research was stopped early at the owner's request; this report rests on",
  "> 2 of 3 research topics.",
  "",
  "## Efficiency in the cold",
  "",
  "Heat pumps keep a COP above 2 at -15 °C [1]. Boilers never exceed 0.95 [2] *(not supported by source 2)*.",
  "",
  "> A quoted passage from a field study stays: it is the research's own material.",
].join("\n");

describe("withoutScaffolding", () => {
  it("drops the app's notices and verdict marks from the text, and keeps title, headings and notices to refuse", () => {
    const { text, scaffolding } = withoutScaffolding(REPORT);
    expect(text).not.toContain("Partial report");
    expect(text).not.toContain("2 of 3 research topics");
    expect(text).not.toContain("not supported by source");
    expect(text).toContain("Heat pumps keep a COP above 2 at -15 °C [1].");
    expect(text).toContain("> A quoted passage from a field study stays");
    expect(text).toContain("## Efficiency in the cold");
    expect(scaffolding).toContain("heat pumps against gas boilers");
    expect(scaffolding).toContain("efficiency in the cold");
    expect(scaffolding.some((s) => s.startsWith("partial report research was stopped early"))).toBe(true);
  });
});

describe("isScaffolding", () => {
  const { scaffolding } = withoutScaffolding(REPORT);
  it("refuses the title, a heading, a notice and a fragment of one, in any case or markup", () => {
    expect(isScaffolding("Heat pumps against gas boilers", scaffolding)).toBe(true);
    expect(isScaffolding("**Efficiency in the cold**", scaffolding)).toBe(true);
    expect(isScaffolding("Partial report.", scaffolding)).toBe(true);
    expect(isScaffolding("Research was stopped early at the owner's request", scaffolding)).toBe(true);
    expect(isScaffolding("Efficiency in the cold:", scaffolding)).toBe(true);
    expect(isScaffolding("  ", scaffolding)).toBe(true);
  });
  it("keeps statements, also those that mention a heading's words", () => {
    expect(isScaffolding("Heat pumps keep a COP above 2 at -15 °C in field trials.", scaffolding)).toBe(
      false,
    );
    expect(
      isScaffolding(
        "Efficiency in the cold: cold-climate heat pumps keep a COP above 2 well below freezing, per 2023 field trials.",
        scaffolding,
      ),
    ).toBe(false);
  });
});

const citation = (sourceId: string, support: CitationRecord["support"], number = 1): CitationRecord => ({
  number,
  sourceId,
  sentence: "A sentence.",
  support,
});

describe("evidenceConfidence", () => {
  const verdicts = verdictsBySource([
    citation("a", "supported"),
    citation("b", "supported", 2),
    citation("c", "supported", 3),
    citation("p", "partially_supported", 4),
    citation("u", "unchecked", 5),
    citation("x", "unsupported", 6),
    citation("mixed", "supported", 7),
    citation("mixed", "unsupported", 7),
  ]);

  it("rises with every supporting source and with better verdicts", () => {
    const none = evidenceConfidence([], verdicts);
    const one = evidenceConfidence(["a"], verdicts);
    const two = evidenceConfidence(["a", "b"], verdicts);
    const three = evidenceConfidence(["a", "b", "c"], verdicts);
    expect([none, one, two, three]).toEqual([0.15, 0.55, 0.75, 0.85]);
    const partly = evidenceConfidence(["p"], verdicts);
    const unchecked = evidenceConfidence(["u"], verdicts);
    const uncited = evidenceConfidence(["never-cited"], verdicts);
    expect(one).toBeGreaterThan(partly);
    expect(partly).toBeGreaterThan(unchecked);
    expect(unchecked).toBeGreaterThan(uncited);
    expect(uncited).toBeGreaterThan(none);
  });

  it("counts an unsupported citation against the item, never below the floor", () => {
    expect(evidenceConfidence(["x"], verdicts)).toBe(0.15);
    expect(evidenceConfidence(["a", "x"], verdicts)).toBeLessThan(evidenceConfidence(["a"], verdicts));
    expect(evidenceConfidence(["mixed"], verdicts)).toBeLessThan(evidenceConfidence(["a"], verdicts));
    expect(contradicted(["a", "x"], verdicts)).toBe(true);
    expect(contradicted(["a", "b"], verdicts)).toBe(false);
  });
});
