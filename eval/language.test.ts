import { describe, expect, it } from "vitest";
import { detectLanguage, languageMatch, reportProse } from "./language.ts";

describe("language heuristic", () => {
  it("tells common languages from their function words and scripts", () => {
    expect(detectLanguage("How do heat pumps compare with gas boilers on running costs?")).toBe("en");
    expect(
      detectLanguage(
        "Wie stark senkt eine Dämmung der obersten Geschossdecke den Bedarf, und wann lohnt sie sich?",
      ),
    ).toBe("de");
    expect(
      detectLanguage(
        "Quelle est la durée de vie des batteries sodium-ion pour le stockage dans les réseaux ?",
      ),
    ).toBe("fr");
    expect(detectLanguage("¿Cuál es el coste de las bombas de calor para una casa típica?")).toBe("es");
    expect(detectLanguage("Каковы расходы на тепловой насос?")).toBe("ru");
    expect(detectLanguage("ヒートポンプの効率はどのくらいですか")).toBe("ja");
    expect(detectLanguage("热泵的效率如何")).toBe("zh");
  });

  it("says unknown rather than guess from too little", () => {
    expect(detectLanguage("COP 3.5")).toBe("unknown");
    expect(detectLanguage("")).toBe("unknown");
    expect(languageMatch("SCOP?", "The heat pump is efficient and the costs are low.").match).toBeNull();
    expect(languageMatch("What is the SCOP of a heat pump?", null)).toEqual({
      question: "en",
      report: "unknown",
      match: null,
    });
  });

  it("judges the report by its prose, not its Sources list or URLs", () => {
    const report =
      "## Ergebnis\n\nDie Dämmung senkt den Bedarf um ein Drittel [1] und ist nach etwa acht Jahren bezahlt.\n\n## Sources\n\n1. [The cost of the insulation of the top floor and what is saved](https://example.org/what-is-the-cost)\n";
    expect(reportProse(report)).not.toContain("example.org");
    expect(reportProse(report)).not.toContain("cost of the insulation");
    expect(
      languageMatch("Wie stark senkt eine Dämmung den Bedarf, und wann rechnet sie sich?", report),
    ).toEqual({
      question: "de",
      report: "de",
      match: true,
    });
    expect(
      languageMatch("How much does insulating the top floor save, and when does it pay off?", report).match,
    ).toBe(false);
  });
});
