// A report written in another language than its question: every word the code puts into it (the
// Sources heading, the read-in-full note, partial notices) is in the run's reportLanguage, and the
// parts of the code that read a report back find its source list by form, not by an English heading.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import {
  objectModel,
  openReportDb,
  promptParts,
  reportHarness,
  synthesisModel,
} from "../../../test/support/report-harness.ts";
import type { ReportLanguageSetting } from "../language.ts";
import { numberedReportSources } from "../phases/knowledge.ts";
import { reportBody, sourcesSectionAt } from "./parts.ts";
import { type ReportInput, writePartialReport, writeReport } from "./synthesis.ts";
import { REPORT_WORDS } from "./words/index.ts";

const QUESTION = "How efficient are heat pumps?";
const TEXT = "Heat pumps deliver three units of heat per unit of electricity in mild weather.";

let db: DatabaseHandle;
beforeAll(async () => {
  db = await openReportDb();
});
afterAll(async () => {
  await db?.close();
});

const judge = () =>
  objectModel("judge", (o) => ({
    verdicts: [...promptParts(o).user.matchAll(/^Item (\d+)$/gm)].map((m) => ({
      id: Number(m[1]),
      verdict: "supported",
      reason: "",
    })),
  }));

async function world(language: ReportLanguageSetting, reply: string) {
  const seen: string[] = [];
  const synthesis = synthesisModel((o) => {
    seen.push(promptParts(o).system);
    return reply;
  });
  const h = await reportHarness(db, { synthesis, judge: judge() }, QUESTION);
  h.deps.config = { ...h.deps.config, reportLanguage: language };
  const d = await h.directive("Efficiency of heat pumps.");
  const source = await h.source(d.id, { url: "https://cop.example/", title: "COP study", content: TEXT });
  const input: ReportInput = {
    question: QUESTION,
    brief: "I want to know how efficient heat pumps are.",
    directives: await h.store.listDirectives(),
    findings: [
      {
        directiveId: d.id,
        findings: `## Findings\n${TEXT} [1]\n\n### Sources\n[1] COP study — https://cop.example/`,
      },
    ],
    sources: await h.store.listSources(),
  };
  return { h, input, seen, source };
}

describe("a report in the run's language", () => {
  it.each([
    [
      "de",
      "# Wärmepumpen\n\nWärmepumpen liefern bei mildem Wetter drei Einheiten Wärme je Einheit Strom [1].\n\n## Fazit\n\nSie sind effizient [1].",
    ],
    ["zh", "# 热泵\n\n热泵在温和天气下每单位电力可提供三个单位的热量 [1]。\n\n## 结论\n\n热泵很高效 [1]。"],
  ] as const)("%s: Sources heading in that language, found again by form", async (language, reply) => {
    const { h, input, seen, source } = await world(language, reply);
    const out = await writeReport(h.deps, input);
    const words = REPORT_WORDS[language];
    expect(seen[0]).toContain(language === "de" ? "GERMAN (DEUTSCH)" : "SIMPLIFIED CHINESE");
    expect(out.markdown).toContain(`\n## ${words.sources}\n\n[1] [COP study](https://cop.example/)`);
    expect(out.markdown).not.toMatch(/^## Sources$/m);
    const at = sourcesSectionAt(out.markdown);
    expect(out.markdown.slice(at)).toMatch(new RegExp(`^## ${words.sources}\\n`));
    // The conclusion heading before the list is part of the body, not taken for the list.
    expect(reportBody(out.markdown)).toContain(language === "de" ? "## Fazit" : "## 结论");
    // Knowledge extraction reads the numbered list of a report in any language.
    const { numbered, body } = numberedReportSources(out.markdown, await h.store.listSources());
    expect(numbered.get(1)?.id).toBe(source.id);
    expect(body).not.toContain(words.sources);
    expect(out.citationStats).toMatchObject({ supported: 2 });
  });

  it("writes a partial report's notice and findings fallback in the run's language", async () => {
    const { h, input } = await world("de", "");
    const out = await writePartialReport(h.deps, { ...input, reason: "Budget erschöpft" });
    expect(out?.markdown).toContain(
      "> **Unvollständiger Bericht.** Der Durchlauf endete, bevor der Bericht geschrieben werden konnte (Budget erschöpft).",
    );
    expect(out?.markdown).toMatch(/\n## Quellen\n/);
  });

  it("keeps English words for an English question with auto", async () => {
    const { h, input } = await world(
      "auto",
      "# Heat pumps\n\nThey deliver three units of heat per unit of electricity [1].",
    );
    const out = await writeReport(h.deps, input);
    expect(out.markdown).toMatch(/\n## Sources\n\n\[1\] \[COP study\]/);
  });

  it("has the same words in every language", () => {
    const keys = (o: object) => Object.keys(o).sort();
    for (const w of Object.values(REPORT_WORDS)) expect(keys(w)).toEqual(keys(REPORT_WORDS.en));
    expect(sourcesSectionAt("# T\n\n## Quellen\n\nkein Eintrag")).toBe(-1);
  });
});
