/**
 * "How this was researched": a supervision round's card says the reasons the code wrote (the
 * round's decision, a heuristic's rationale) in the page's language from their codes, keeps a
 * model's own words as written, and shows a round stored before codes in the engine's words.
 */
import { NextIntlClientProvider } from "next-intl";
import { type ComponentProps, createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Locale } from "@/i18n/locale";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import { RoundCard } from "./round-card";
import type { SupervisionRoundView } from "./types";

const catalogues = { en, de, zh } as unknown as Record<Locale, typeof en>;

const heuristicWhy = {
  code: "round_heuristic_sufficient",
  values: { said: "upstream 400: bad request", coverage: 0.8, threshold: 0.75 },
};
const written =
  "assessment unavailable (upstream 400: bad request); heuristic confidence 0.80 against threshold 0.75: coverage is sufficient.";

const round = {
  round: 1,
  method: "coverage",
  directivesGenerated: 0,
  directivesExecuted: 0,
  newSources: 0,
  think: null,
  assessment: {
    method: "heuristic",
    shouldContinue: false,
    rationale: written,
    rationaleBecause: heuristicWhy,
    plannedStop: `coverage_sufficient: ${written}`,
    plannedStopBecause: heuristicWhy,
  },
  coverageBefore: null,
  coverageAfter: null,
  decision: "stop",
  reason: `coverage_sufficient: ${written}`,
  because: heuristicWhy,
} as unknown as SupervisionRoundView;

function rendered(locale: Locale, r: SupervisionRoundView): string {
  const html = renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      { locale, messages: catalogues[locale], timeZone: "UTC" } as ComponentProps<
        typeof NextIntlClientProvider
      >,
      createElement(RoundCard, { round: r, directivesInRound: 0, runEnded: true }),
    ),
  );
  // Plain spaces only: a locale's no-break space (German "80 %") stays as it is.
  return html.replace(/<[^>]+>/g, " ").replace(/[ \t\n]+/g, " ");
}

const sayGerman =
  "die Bewertung war nicht verfügbar (upstream 400: bad request); Abdeckung 80\u00a0% bei einer Schwelle von 75\u00a0%: Die Abdeckung genügt";

describe("RoundCard", () => {
  it("says the code's reasons in German, the provider's error as it was said", () => {
    const text = rendered("de", round);
    expect(text).toContain(`(Aus der Zahl der Quellen.) ${sayGerman}`);
    expect(text).toContain(`Beendet: ${sayGerman}`);
    expect(text).not.toContain("assessment unavailable");
  });

  it("says a round's decision in Chinese, with the directives still researched after a planned stop", () => {
    const queued = { ...heuristicWhy, values: { ...heuristicWhy.values, queued: 2 } };
    const text = rendered("zh", { ...round, because: queued } as SupervisionRoundView);
    expect(text).toContain(
      "停止： 评估不可用（upstream 400: bad request）；覆盖度 80%，阈值 75%：覆盖已足够；排队中的 2 个方向仍然完成了研究",
    );
  });

  it("keeps a model's own rationale as it wrote it", () => {
    const model = {
      ...round,
      assessment: { method: "llm", shouldContinue: false, rationale: "Die Belege beantworten den Auftrag." },
      reason:
        "coverage_sufficient: the supervisor judged coverage sufficient (overall 0.90): Die Belege beantworten den Auftrag.",
      because: {
        code: "round_model_sufficient",
        values: { coverage: 0.9, said: "Die Belege beantworten den Auftrag." },
      },
    } as unknown as SupervisionRoundView;
    const text = rendered("de", model);
    expect(text).toContain("Bewertung: genug. Die Belege beantworten den Auftrag.");
    expect(text).toContain(
      "Beendet: der Supervisor hält die Abdeckung für ausreichend: Die Belege beantworten den Auftrag.",
    );
  });

  it("shows a round stored before codes in the engine's words, made plain", () => {
    const old = {
      ...round,
      assessment: { method: "heuristic", shouldContinue: false, rationale: written },
      because: null,
    } as unknown as SupervisionRoundView;
    const text = rendered("de", old);
    expect(text).toContain("Beendet: assessment unavailable (upstream 400: bad request); coverage 80%");
  });
});

describe("RoundCard's follow-ups", () => {
  it("says a heuristic follow-up's measured gaps in German, and a model's gap as it wrote it", () => {
    const followUps = [
      {
        topic: "Heizlast — Primärdaten",
        gap: "no HIGH-quality source; one domain only",
        gapBecause: [{ code: "gap_no_high" }, { code: "gap_one_domain" }],
      },
      { topic: "Kosten", gap: "keine Installateurangebote" },
    ];
    const assessment = { ...(round.assessment as object), shouldContinue: true, followUps };
    const text = rendered("de", { ...round, assessment } as unknown as SupervisionRoundView);
    expect(text).toContain("keine Quelle hoher Qualität, nur eine Website");
    expect(text).toContain("keine Installateurangebote");
    expect(text).not.toContain("one domain only");
  });
});
