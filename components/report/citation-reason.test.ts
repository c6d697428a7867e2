// The citation card says the support check's reason in the page's language (from its stored code),
// the model's or provider's own words as they were said, and a reason stored before codes in the
// English it was written in.
import { createTranslator } from "next-intl";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type Because, because, verdictReasonCodes } from "@/lib/research/because";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import { withMessages } from "../../test/support/intl.ts";
import { becauseText } from "../run/because-text";
import type { Translate } from "../run/run-words";
import { CitationCardBody } from "./citation-card.tsx";
import type { CitationCard, CitedClaim } from "./citation-data";

const catalogues = { en, de, zh };
const translator = (locale: keyof typeof catalogues) =>
  createTranslator({ locale, messages: catalogues[locale] as typeof en }) as unknown as Translate;

const PASSAGE = "Heat pumps in the survey lasted about fifteen years before a major repair.";

/** The open card of one claim, rendered for real on a German page. */
function card(claim: Omit<CitedClaim, "sentence" | "passage">): string {
  const c: CitationCard = {
    number: 1,
    sourceId: "s1",
    title: "Survey",
    domain: "survey.example",
    claims: [{ ...claim, sentence: "Heat pumps last forty years.", passage: PASSAGE }],
  };
  const body = createElement(CitationCardBody, {
    card: c,
    verdict: claim.support,
    context: "Heat pumps last forty years [1].",
    passages: { state: "loaded", claims: c.claims },
  });
  return renderToStaticMarkup(withMessages(body, "de"));
}

describe("the citation card's reason", () => {
  it("says a model's verdict in German, with the model's words as said and what the report did", () => {
    const html = card({
      support: "unsupported",
      reason: "model: no lifetime given; marked in the report",
      because: because("verdict_model", { said: "no lifetime given", handled: "marked" }),
    });
    expect(html).toContain("Modellprüfung: no lifetime given (im Bericht markiert)");
    expect(html).not.toContain("marked in the report");
  });

  it("says a lexical verdict and the check budget in German and Chinese, with their numbers", () => {
    const overlap = because("verdict_overlap", { percent: 88 });
    expect(card({ support: "supported", reason: "lexical: 88% …", because: overlap })).toContain(
      "Wortabgleich: 88 % der Begriffe des Satzes und alle seine Zahlen stehen in der Quelle.",
    );
    const budget = because("verdict_over_budget", { max: 90 });
    expect(becauseText(translator("zh"), budget, "beyond the check budget")).toBe(
      "未核查：每份报告最多由模型核查 90 处引用。",
    );
    expect(becauseText(translator("de"), because("verdict_over_budget", { max: 1 }), "x")).toBe(
      "Nicht geprüft: Pro Bericht werden höchstens 1 Beleg vom Modell geprüft.",
    );
  });

  it("shows the English reason of a citation stored before reasons had codes", () => {
    const html = card({
      support: "supported",
      reason: "lexical: the sentence is quoted verbatim from the source",
    });
    expect(html).toContain("lexical: the sentence is quoted verbatim from the source");
  });

  it("has words for every verdict code in every language, whatever the report did with it", () => {
    const samples: Because[] = verdictReasonCodes.flatMap((code) =>
      ["kept", "removed", "marked"].map((handled) =>
        because(code, { said: "SAID", percent: 75, max: 3, verdict: "unsupported", handled }),
      ),
    );
    for (const locale of ["en", "de", "zh"] as const) {
      const t = translator(locale);
      for (const why of samples) {
        const text = becauseText(t, why, "WRITTEN");
        expect(text, `${locale} ${why.code}`).not.toMatch(/WRITTEN|because\.|[{}]/);
      }
    }
    // A model's verdict without a reason of its own: said in words, not as the engine's English.
    const silent = because("verdict_model_silent", { verdict: "partially_supported", handled: "kept" });
    expect(becauseText(translator("de"), silent, "model: partially supported")).toBe(
      "Modellprüfung: von der Quelle teilweise gestützt, ohne Begründung.",
    );
  });
});
