// An English question researched with reportLanguage "de" (and "zh"): a whole run through the real
// orchestrator on the app's embedded database with mock models (test/support/engine-harness.ts). The
// brief, compression, report and knowledge prompts ask for that language; the report's Sources heading
// is in it; the run's end, the knowledge extraction and the citation rows work on it as on an English
// report; the Markdown and PDF downloads (route handlers) carry its words; and a run whose report
// could not be written ends with the partial notice in that language.
import { execFileSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRun } from "../db/queries/runs.ts";
import { citations, knowledgeItems, reports, runs, sources } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { LANGUAGE_NAMES, type ReportLanguage } from "../lib/research/language.ts";
import { sourcesSectionAt } from "../lib/research/report/parts.ts";
import { REPORT_WORDS } from "../lib/research/report/words/index.ts";
import { call, type Person, signUp, useFreshAppDatabase } from "./support/app-session.ts";
import { type NumberedSource, runScenario, type Scenario } from "./support/engine-harness.ts";

type Handler = Parameters<typeof call>[0];
type Language = Exclude<ReportLanguage, "en">;

const EFFICIENCY = "Heat pump efficiency explained";
const COSTS = "Heat pump running costs compared with gas boilers";

const number = (list: NumberedSource[], title: string) => {
  const s = list.find((x) => x.title === title);
  if (!s) throw new Error(`"${title}" is not in the numbered source list`);
  return s.number;
};

/** What the writing model answers in each language, citing the run-wide numbers it was given. */
const REPORTS: Record<Language, (e: number, c: number) => string> = {
  de: (e, c) =>
    `# Wärmepumpen im Überblick\n\nEine Luft-Wasser-Wärmepumpe erreicht in einem typischen Haus eine Jahresarbeitszahl von 3,2 [${e}].\n\n` +
    `## Betriebskosten\n\nIm Betrieb kostet sie etwa 30 % weniger pro Jahr als ein Gaskessel [${c}].\n\n## Fazit\n\nSie lohnt sich [${e}][${c}].`,
  zh: (e, c) =>
    `# 热泵概览\n\n在典型住宅中，空气源热泵的季节性能系数为 3.2 [${e}]。\n\n## 运行成本\n\n其每年运行成本比燃气锅炉低约 30% [${c}]。\n\n## 结论\n\n热泵值得安装 [${e}][${c}]。`,
};
const FINDINGS: Record<Language, string> = {
  de: "Eine Luft-Wasser-Wärmepumpe erreicht eine Jahresarbeitszahl von 3,2.",
  zh: "空气源热泵的季节性能系数为 3.2。",
};

function scenario(
  language: Language,
  opts: { synthesisFailures?: number; emptyReport?: boolean } = {},
): Scenario {
  return {
    question: "Are heat pumps worth it, and what do they cost to run compared with a gas boiler?",
    brief: "I want to know whether a heat pump is worth installing and what it costs to run.",
    settings: { reportLanguage: language },
    synthesisFailures: opts.synthesisFailures ?? 0,
    docs: [
      {
        key: "efficiency",
        title: EFFICIENCY,
        content:
          "An air-source heat pump delivers a seasonal coefficient of performance (SCOP) of 3.2 in a typical house.",
      },
      {
        key: "costs",
        title: COSTS,
        content: "Running a heat pump costs about 30% less per year than running a gas boiler.",
      },
    ],
    directives: [
      {
        topic: "Seasonal efficiency of air-source heat pumps in ordinary houses.",
        query: "heat pump seasonal coefficient of performance",
        read: EFFICIENCY,
        evidence: "(SCOP) of 3.2",
        findings: (n) => `${FINDINGS[language]} [${n}]`,
      },
      {
        topic: "Annual running costs of a heat pump compared with a gas boiler.",
        query: "heat pump running costs gas boiler",
        read: COSTS,
        evidence: "about 30% less per year",
        findings: (n) =>
          `${language === "de" ? "Etwa 30 % günstiger als Gas." : "比燃气便宜约 30%。"} [${n}]`,
      },
    ],
    report: (list) =>
      opts.emptyReport ? "" : REPORTS[language](number(list, EFFICIENCY), number(list, COSTS)),
    knowledge: (list) => ({
      items: [
        {
          category: "finding",
          content: FINDINGS[language],
          sources: [number(list, EFFICIENCY)],
          confidence: 0.8,
          needs_review: false,
        },
      ],
    }),
  };
}

let stopApp: () => Promise<void>;
let alice: Person;
let markdown: Handler;
let pdf: Handler;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  alice = await signUp("alice@example.org");
  markdown = (await import("../app/api/runs/[id]/report.md/route.ts")).GET as Handler;
  pdf = (await import("../app/api/runs/[id]/report.pdf/route.ts")).GET as Handler;
}, 60_000);
afterAll(async () => stopApp());

/** Runs the scenario on the app's database and hands the run to alice, so the downloads are hers. */
async function aliceRun(s: Scenario) {
  const { handle } = await getRuntime();
  const r = await runScenario(handle, s);
  await handle.db.update(runs).set({ ownerId: alice.userId }).where(eq(runs.id, r.run.id));
  const [report] = await handle.db.select().from(reports).where(eq(reports.runId, r.run.id));
  return { r, db: handle.db, report };
}

const download = async (h: Handler, format: string, id: string) => {
  const res = await call(h, "GET", `/api/runs/${id}/report.${format}`, { who: alice, params: { id } });
  expect(res.status).toBe(200);
  return res;
};

describe.each(["de", "zh"] as const)("an English question with reportLanguage %s", (language) => {
  const words = REPORT_WORDS[language];

  it("asks for the language, writes its headings, and ends, extracts and cites as an English run", async () => {
    const { r, db, report } = await aliceRun(scenario(language));
    expect(r.problems).toEqual([]);
    expect(r.outcome).toEqual({ status: "completed", partial: false });
    expect((await getRun(db, r.run.id))?.status).toBe("completed");

    // Every writing prompt names the chosen language, not the question's.
    for (const kind of ["brief", "compression", "synthesis", "knowledge"] as const) {
      const prompts = r.callsOf(kind);
      expect(prompts.length, kind).toBeGreaterThan(0);
      for (const p of prompts)
        expect(`${p.system}\n${p.text}`.toLowerCase(), kind).toContain(
          LANGUAGE_NAMES[language].toLowerCase(),
        );
    }

    // The Sources section under the language's heading, found by form; no English heading anywhere.
    expect(report.partial).toBe(false);
    expect(report.markdown).not.toMatch(/^#+ Sources\s*$/m);
    const at = sourcesSectionAt(report.markdown);
    expect(report.markdown.slice(at)).toMatch(
      new RegExp(`^## ${words.sources}\\n\\n\\[1\\] \\[${EFFICIENCY}\\]`),
    );
    expect(report.markdown.slice(at)).toContain(`[2] [${COSTS}]`);

    // Citation rows point at the listed sources; the run's end counts them as for an English report.
    const sourceRows = await db.select().from(sources).where(eq(sources.runId, r.run.id));
    const byTitle = (t: string) => sourceRows.find((s) => s.title === t)?.id;
    const citationRows = await db.select().from(citations).where(eq(citations.runId, r.run.id));
    expect(citationRows.map((c) => [c.number, c.sourceId]).sort()).toEqual(
      [
        [1, byTitle(EFFICIENCY)],
        [1, byTitle(EFFICIENCY)],
        [2, byTitle(COSTS)],
        [2, byTitle(COSTS)],
      ].sort(),
    );
    expect(r.events.at(-1)).toEqual({ type: "run.completed", sources: 2, citations: 2, partial: false });

    // Knowledge extraction read the numbered list under the translated heading.
    const knowledge = await db.select().from(knowledgeItems).where(eq(knowledgeItems.runId, r.run.id));
    expect(knowledge.map((k) => [k.content, k.sourceIds])).toEqual([
      [FINDINGS[language], [byTitle(EFFICIENCY)]],
    ]);

    // The downloads: the stored Markdown, and a PDF whose own words are in the language.
    const md = await (await download(markdown, "md", r.run.id)).text();
    expect(md).toContain(`## ${words.sources}`);
    expect(md).not.toMatch(/^#+ Sources\s*$/m);
    expect(md).toContain(language === "de" ? "Jahresarbeitszahl von 3,2" : "季节性能系数为 3.2");
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], {
      input: Buffer.from(await (await download(pdf, "pdf", r.run.id)).arrayBuffer()),
      encoding: "utf8",
    }).replace(/\s+/g, " ");
    expect(text).toContain(language === "de" ? "Recherchebericht ·" : "深度研究报告 ·");
    expect(text).toContain(words.sources);
    expect(text).toContain(EFFICIENCY);
    expect(text).not.toMatch(/Deep research report|\bSources\b|Supported by the source/);
  });

  it("writes the partial report's notice and source list in the language when the model writes nothing", async () => {
    const { r, report } = await aliceRun(scenario(language, { emptyReport: true }));
    expect(r.problems).toEqual([]);
    expect(r.outcome).toMatchObject({ status: "completed", partial: true });
    expect(report.partial).toBe(true);
    expect(report.markdown).toContain(`> **${words.partial}** ${words.emptyReport}`);
    expect(report.markdown).toContain(FINDINGS[language]);
    expect(report.markdown.slice(sourcesSectionAt(report.markdown))).toMatch(
      new RegExp(`^## ${words.sources}\\n\\n\\[1\\] \\[${EFFICIENCY}\\]`),
    );
    // No English word of the code's in it: the findings' own source lists are not carried over.
    expect(report.markdown).not.toMatch(/Partial report|Sources|read in full|research findings/);
    const md = await (await download(markdown, "md", r.run.id)).text();
    expect(md).toContain(`> **${words.partial}**`);
  });

  it("says in the language that the material did not fit the writing model", async () => {
    const { r, report } = await aliceRun(scenario(language, { synthesisFailures: 10 }));
    expect(r.problems).toEqual([]);
    expect(r.outcome).toMatchObject({ status: "completed", partial: true });
    expect(report.markdown).toContain(`> **${words.partial}** ${words.contextOverflow(2)}`);
    expect(report.markdown).toContain(words.noFindings);
  });
});
