import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import { getRun } from "../../../db/queries/runs.ts";
import { knowledgeItems } from "../../../db/schema.ts";
import { apiError } from "../../../test/support/ai-mocks.ts";
import {
  objectModel,
  openReportDb,
  promptParts,
  reportHarness,
} from "../../../test/support/report-harness.ts";
import { buildSourcesSection } from "../report/citations/source-list.ts";
import type { SourceRecord } from "../store.ts";
import { extractKnowledge, numberedReportSources } from "./knowledge.ts";

let db: DatabaseHandle;
beforeAll(async () => {
  db = await openReportDb();
});
afterAll(async () => {
  await db?.close();
});

const QUESTION = "How do heat pumps compare with gas boilers?";

async function setup(reply: Parameters<typeof objectModel>[1]) {
  const supervisor = objectModel("supervisor", reply);
  const h = await reportHarness(db, { supervisor }, QUESTION);
  const d = await h.directive("Emissions of heat pumps");
  const costs = await h.source(d.id, {
    url: "https://costs.example/2024",
    title: "Cost survey",
    content: "Costs.",
  });
  const study = await h.source(d.id, {
    url: "https://study.example/heat",
    title: "Field study",
    content: "Study.",
  });
  // Report numbering differs from store order: [1] is the study, [2] the cost survey.
  const report =
    "# Heat pumps\n\nHeat pumps cut emissions by 60 percent [1]. They cost more upfront [2].\n\n" +
    buildSourcesSection([study, costs]);
  return { h, supervisor, report, study, costs, sources: [costs, study] as SourceRecord[] };
}

async function storedItems(runId: string) {
  return db.db.select().from(knowledgeItems).where(eq(knowledgeItems.runId, runId));
}

describe("extractKnowledge", () => {
  it("stores validated items as provisional, with the report's source numbers mapped to source ids", async () => {
    const { h, supervisor, report, study, costs, sources } = await setup(() => ({
      items: [
        {
          category: "finding",
          content:
            "Heat pumps cut household emissions by about 60 percent compared with gas boilers (2023 study).",
          sources: [1, 7],
          confidence: 0.8,
          needs_review: false,
        },
        {
          category: "lesson",
          content: "Field studies measured emissions more reliably than manufacturer claims.",
          sources: [],
          confidence: 0.6,
          needs_review: false,
        },
        {
          category: "finding",
          content: "Upfront prices vary widely between regions.",
          sources: [9],
          confidence: 0.4,
          needs_review: false,
        },
        {
          category: "domain",
          content: "Installer price surveys are the main source for upfront costs.",
          sources: [2, 2],
          confidence: 0.7,
          needs_review: true,
        },
      ],
    }));
    const count = await extractKnowledge(h.deps, { question: QUESTION, report, sources });
    expect(count).toBe(4);
    const rows = await storedItems(h.runId);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.status === "provisional" && r.ownerId === "tester")).toBe(true);
    const byContent = new Map(rows.map((r) => [r.content.slice(0, 20), r]));
    expect(byContent.get("Heat pumps cut house")).toMatchObject({
      category: "finding",
      sourceIds: [study.id],
      needsReview: false,
    });
    // The model said 0.8; the item rests on one source the report never cites, so it gets little.
    expect(byContent.get("Heat pumps cut house")?.confidence).toBeCloseTo(0.25);
    // A finding whose only source number is unknown keeps no source and goes to review.
    expect(byContent.get("Upfront prices vary ")).toMatchObject({ sourceIds: [], needsReview: true });
    expect(byContent.get("Installer price surv")).toMatchObject({
      category: "domain",
      sourceIds: [costs.id],
    });
    expect(h.eventsOf("knowledge.extracted")).toEqual([{ type: "knowledge.extracted", count: 4 }]);

    const { system, user } = promptParts(supervisor.doGenerateCalls[0]);
    expect(system).toMatch(/finding/);
    expect(user).toContain('<untrusted_web_data kind="report">');
    expect(user).toContain("[1] Field study — https://study.example/heat");
    expect(user).not.toContain("## Sources");
  });

  it("returns 0 without throwing, and records the failure, when the model call fails", async () => {
    const { h, report, sources } = await setup(() => new Error("model offline"));
    await expect(extractKnowledge(h.deps, { question: QUESTION, report, sources })).resolves.toBe(0);
    expect(await storedItems(h.runId)).toEqual([]);
    const [event] = h.eventsOf("knowledge.extracted");
    expect(event).toMatchObject({ count: 0, failed: true });
    expect(event.reason).toMatch(/model offline/);
  });

  it("records a refused call on the run once, with the model and the provider's words, across a re-run", async () => {
    const refusal = apiError({
      status: 400,
      body: { error: { message: "Invalid schema for 'knowledge_items'." } },
    });
    const { h, report, sources } = await setup(() => refusal);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await extractKnowledge(h.deps, { question: QUESTION, report, sources })).toBe(0);
    }
    const run = await getRun(db.db, h.runId);
    expect(run?.degradations).toEqual([
      {
        step: "knowledge",
        round: null,
        model: "mock:supervisor",
        error: "Invalid schema for 'knowledge_items'.",
        cause: { kind: "refused", status: 400 },
        notice:
          "No knowledge was extracted: mock:supervisor refused the request (HTTP 400) — Invalid schema for 'knowledge_items'.",
        at: new Date(0).toISOString(),
      },
    ]);
    // Announced once: the second attempt found it recorded.
    expect(h.eventsOf("run.degraded")).toHaveLength(1);
    expect(h.eventsOf("knowledge.extracted")).toHaveLength(2);
  });

  it("cuts an over-long item instead of refusing the answer", async () => {
    const { h, report, sources, supervisor } = await setup(() => ({
      items: [
        { category: "finding", content: "x".repeat(501), sources: [1], confidence: 0.5, needs_review: false },
      ],
    }));
    expect(await extractKnowledge(h.deps, { question: QUESTION, report, sources })).toBe(1);
    expect(supervisor.doGenerateCalls).toHaveLength(1);
    const [item] = await storedItems(h.runId);
    expect(item.content).toHaveLength(500);
    expect(item.content.endsWith("…")).toBe(true);
  });

  it("returns 0 when the answer never validates (a category it does not know)", async () => {
    const { h, report, sources, supervisor } = await setup(() => ({
      items: [
        { category: "rumour", content: "Prices fell.", sources: [1], confidence: 0.5, needs_review: false },
      ],
    }));
    expect(await extractKnowledge(h.deps, { question: QUESTION, report, sources })).toBe(0);
    expect(supervisor.doGenerateCalls).toHaveLength(3);
    expect(await storedItems(h.runId)).toEqual([]);
    expect(h.eventsOf("knowledge.extracted")[0]).toMatchObject({ failed: true });
  });

  it("still throws when the run is cancelled", async () => {
    const { h, report, sources } = await setup(() => {
      h.abort.abort(new Error("cancelled by tester"));
      return new Error("aborted");
    });
    await expect(extractKnowledge(h.deps, { question: QUESTION, report, sources })).rejects.toThrow(
      "cancelled by tester",
    );
  });
});

describe("extractKnowledge: items worth reviewing", () => {
  it("takes neither the report's title, headings nor notices, and weighs each item by its sources' verdicts", async () => {
    const item = (content: string, sources: number[]) => ({
      category: "finding" as const,
      content,
      sources,
      confidence: 0.8,
      needs_review: false,
    });
    const { h, supervisor, study, costs, sources } = await setup(() => ({
      items: [
        item("Heat pumps", []),
        item("Running costs", [2]),
        item("Partial report.", []),
        item("Research was stopped early at the owner's request", []),
        item("Heat pumps cut household emissions by about 60 percent (2023 field study).", [1, 2]),
        item("Heat pumps cost more upfront than gas boilers.", [2]),
      ],
    }));
    const report =
      "# Heat pumps\n\n> **Partial report.** Research was stopped early at the owner's request; this report rests on 1 of 2 topics.\n\n" +
      "## Running costs\n\nHeat pumps cut emissions by 60 percent [1][2]. They cost more upfront [2] *(not supported by source 2)*.\n\n" +
      buildSourcesSection([study, costs]);
    await h.deps.store.saveCitations([
      {
        number: 1,
        sourceId: study.id,
        sentence: "Heat pumps cut emissions by 60 percent [1][2].",
        support: "supported",
      },
      { number: 2, sourceId: costs.id, sentence: "They cost more upfront [2].", support: "unsupported" },
    ]);
    expect(await extractKnowledge(h.deps, { question: QUESTION, report, sources })).toBe(2);
    const rows = await storedItems(h.runId);
    const byContent = new Map(rows.map((r) => [r.content, r]));
    expect([...byContent.keys()].sort()).toEqual([
      "Heat pumps cost more upfront than gas boilers.",
      "Heat pumps cut household emissions by about 60 percent (2023 field study).",
    ]);
    const emissions = byContent.get(
      "Heat pumps cut household emissions by about 60 percent (2023 field study).",
    );
    const upfront = byContent.get("Heat pumps cost more upfront than gas boilers.");
    // One supported and one unsupported source against one unsupported source alone.
    expect(emissions?.confidence).toBeCloseTo(0.38);
    expect(upfront?.confidence).toBeCloseTo(0.15);
    // A cited source found not to support its sentence sends the item to review.
    expect(upfront?.needsReview).toBe(true);
    // The model reads neither the notice nor the check's marks.
    const { user } = promptParts(supervisor.doGenerateCalls[0]);
    expect(user).not.toContain("Partial report");
    expect(user).not.toContain("not supported by source");
    expect(user).toContain("Heat pumps cut emissions by 60 percent [1][2].");
  });
});

describe("numberedReportSources", () => {
  it("falls back to the given sources in order when the report has no Sources section", async () => {
    const { sources } = await setup(() => ({ items: [] }));
    const r = numberedReportSources("Just text.", sources);
    expect([...r.numbered.entries()].map(([n, s]) => [n, s.title])).toEqual([
      [1, "Cost survey"],
      [2, "Field study"],
    ]);
    expect(r.body).toBe("Just text.");
  });

  it("reads the report's Sources list, including entries noted as read in full", async () => {
    const { sources } = await setup(() => ({ items: [] }));
    const [a, b] = sources;
    const report = `Body [1][2].\n\n## Sources\n\n[1] [${a.title}](${a.url}) *(read in full)*\n[2] [${b.title}](${b.url})\n`;
    const r = numberedReportSources(report, sources);
    expect([...r.numbered.entries()].map(([n, s]) => [n, s.id])).toEqual([
      [1, a.id],
      [2, b.id],
    ]);
    expect(r.body).toBe("Body [1][2].");
  });
});
