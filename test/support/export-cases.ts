// Test-only: reports as the exports get them (lib/server/exports/report-model.ts), with the
// Markdown a synthesis writes: headings, emphasis, a list, a table, a quote, citations, links.
import { exportWordsFor } from "../../lib/server/exports/labels.ts";
import {
  type ExportDocument,
  inlineRuns,
  reportBlocks,
  runsText,
} from "../../lib/server/exports/report-model.ts";

export const EN_REPORT = `# Do heat pumps work in cold climates?

## Overview

Modern air-source heat pumps keep **most of their efficiency** well below freezing, according to [the energy guide](https://energy.example/guide) [1].
A [hostile link](javascript:alert(1)) stays text.

Field studies in *Nordic* homes found that emissions fell sharply after the switch [1][2].

## Performance in the cold

### Field data

- Defrost cycles cost a few percent of output [2].
- Backup resistance heat is rarely needed [3].

| Climate | Seasonal COP |
| --- | --- |
| Cold climate | 2.8 [2] |
| Mild climate | 3.6 |
| Arctic climate |

> Installers matter as much as the equipment [3].

## Costs

Running costs depend on the price of electricity relative to gas, which ~~never~~ varies by country [1].

## Sources

[1] [Energy guide](https://energy.example/guide)

[2] [Nordic field study](https://study.example/nordic)

[3] [Installer survey](https://survey.example/installers)
`;

export const ZH_REPORT = `## 概述

热泵在寒冷气候中仍然可以保持较高的效率，这一点已被多项实地研究证实 [1]。

## 成本

运行成本取决于电价与燃气价格之比 [1]。

## Sources

[1] [能源指南](https://energy.example/zh)
`;

const EN_SOURCES: ExportDocument["sources"] = [
  {
    number: 1,
    title: "Energy guide",
    url: "https://energy.example/guide",
    domain: "energy.example",
    claims: [
      {
        sentence: "Modern air-source heat pumps keep most of their efficiency well below freezing.",
        support: "supported",
        passage: "In the 2023 field study emissions fell by 60 percent after the switch.",
      },
    ],
  },
  {
    number: 2,
    title: "Nordic field study",
    url: "https://study.example/nordic",
    domain: "study.example",
    claims: [
      {
        sentence: "Defrost cycles cost a few percent.",
        support: "partially_supported",
        passage: "Defrost took 4%.",
      },
    ],
  },
  {
    number: 3,
    title: "Installer survey",
    url: "https://survey.example/installers",
    domain: "survey.example",
    claims: [{ sentence: "Backup heat is rarely needed.", support: "unsupported", passage: null }],
  },
];

export function exportCase(lang: "en" | "zh"): ExportDocument {
  const question = lang === "en" ? "Do heat pumps work in cold climates?" : "热泵在寒冷气候中有效吗？";
  return {
    question,
    date: new Date("2026-11-20T10:00:00Z"),
    partial: false,
    blocks: reportBlocks(lang === "en" ? EN_REPORT : ZH_REPORT, question),
    words: exportWordsFor(lang),
    sources:
      lang === "en"
        ? EN_SOURCES
        : [
            {
              number: 1,
              title: "能源指南",
              url: "https://energy.example/zh",
              domain: "energy.example",
              claims: [],
            },
          ],
  };
}

/** The first 40 characters of each paragraph of the report's body, in reading order. */
export function paragraphOpenings(doc: ExportDocument): string[] {
  return doc.blocks.flatMap((b) =>
    b.type === "paragraph" ? [runsText(inlineRuns(b.children)).slice(0, 40)] : [],
  );
}
