import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import {
  objectModel,
  openReportDb,
  promptParts,
  reportHarness,
} from "../../../test/support/report-harness.ts";
import type { SourceRecord } from "../store.ts";
import type { ReportCitation } from "./citations/index.ts";
import { checkCitationSupport, lexicalSupport, relevantExcerpt } from "./support.ts";

let db: DatabaseHandle;
beforeAll(async () => {
  db = await openReportDb();
});
afterAll(async () => {
  await db?.close();
});

const STUDY =
  "Background on building heat.\n\nHeat pumps reduce household emissions by 60 percent compared with gas " +
  "boilers, according to the 2023 field study of 1,200 homes. Installation costs remain higher.";

async function setup(judge: Parameters<typeof objectModel>[1]) {
  const model = objectModel("judge", judge);
  const h = await reportHarness(db, { judge: model });
  const d = await h.directive("Emissions of heat pumps versus gas boilers");
  const study = await h.source(d.id, {
    url: "https://study.example/heat",
    title: "Field study",
    content: STUDY,
  });
  const other = await h.source(d.id, {
    url: "https://other.example/costs",
    title: "Cost survey",
    content: "Survey of installer prices in 2024.",
  });
  return { h, model, study, other };
}

function cite(number: number, source: SourceRecord, sentence: string): ReportCitation {
  return { number, sourceId: source.id, sentence };
}

describe("lexical pre-check", () => {
  it("settles clear support, flags zero overlap, and leaves the rest uncertain", () => {
    expect(
      lexicalSupport("Heat pumps reduce household emissions by 60 percent compared with gas boilers.", STUDY),
    ).toMatchObject({ verdict: "supported" });
    // Same words but a number the source does not have: not clear.
    expect(lexicalSupport("Heat pumps reduce household emissions by 75 percent.", STUDY).verdict).toBe(
      "uncertain",
    );
    expect(lexicalSupport("Wärmepumpen sind effizienter.", STUDY)).toMatchObject({
      verdict: "no_overlap",
      overlap: 0,
    });
  });

  it("picks the passages of a long source that share the sentence's terms", () => {
    const filler = Array.from(
      { length: 60 },
      (_, i) => `Unrelated filler sentence number ${i} about gardens.`,
    );
    const text = [
      ...filler.slice(0, 30),
      "The 2023 field study measured a 60 percent emissions cut.",
      ...filler.slice(30),
    ].join(" ");
    const excerpt = relevantExcerpt(text, "A field study found a 60 percent cut in emissions.", 400);
    expect(excerpt).toContain("60 percent emissions cut");
    expect(excerpt.length).toBeLessThanOrEqual(400);
  });
});

describe("checkCitationSupport", () => {
  it("settles clear cases lexically and judges the rest in one batched call", async () => {
    const { h, model, study, other } = await setup((options) => {
      const { user } = promptParts(options);
      const verdicts = [];
      if (user.includes("75 percent"))
        verdicts.push({ id: idOf(user, "75 percent"), verdict: "unsupported" });
      if (user.includes("Wärmepumpen"))
        verdicts.push({ id: idOf(user, "Wärmepumpen"), verdict: "supported" });
      // The item about 2025 prices gets no verdict: it stays unchecked.
      return { verdicts };
    });
    const citations = [
      cite(1, study, "Heat pumps reduce household emissions by 60 percent compared with gas boilers."),
      cite(1, study, "Heat pumps reduce household emissions by 75 percent."),
      cite(1, study, "Wärmepumpen senken die Emissionen deutlich."),
      cite(2, other, "Prices fell sharply in 2025."),
    ];
    const r = await checkCitationSupport(h.deps, { citations, sources: [study, other] });
    expect(r.records.map((c) => c.support)).toEqual(["supported", "unsupported", "supported", "unchecked"]);
    expect(r.counts).toEqual({ supported: 2, unsupported: 1, unchecked: 1 });
    expect(r).toMatchObject({ lexicallySupported: 1, sentToModel: 3 });
    expect(model.doGenerateCalls).toHaveLength(1);
    const { system, user } = promptParts(model.doGenerateCalls[0]);
    expect(system).toMatch(/never instructions/);
    expect(user).toContain("<untrusted_web_data");
    expect(user).toContain("1,200 homes");
    expect(user).not.toContain("60 percent compared with gas boilers.\n\nSource"); // the clear one was not sent
  });

  it("records unchecked, never throws, when the model call fails", async () => {
    const { h, study } = await setup(() => new Error("upstream exploded"));
    const r = await checkCitationSupport(h.deps, {
      citations: [
        cite(1, study, "Heat pumps reduce household emissions by 60 percent compared with gas boilers."),
        cite(1, study, "Heat pumps are popular in Norway."),
      ],
      sources: [study],
    });
    expect(r.records.map((c) => c.support)).toEqual(["supported", "unchecked"]);
    expect(r.counts).toEqual({ supported: 1, unsupported: 0, unchecked: 1 });
  });

  it("records unchecked when the model never gives a valid object", async () => {
    const { h, study, model } = await setup(() => "not json at all");
    const r = await checkCitationSupport(h.deps, {
      citations: [cite(1, study, "Heat pumps are popular in Norway.")],
      sources: [study],
    });
    expect(r.counts).toEqual({ supported: 0, unsupported: 0, unchecked: 1 });
    expect(model.doGenerateCalls.length).toBeGreaterThan(1); // re-asked before giving up
  });

  it("stops when the run is cancelled", async () => {
    const { h, study } = await setup(() => {
      h.abort.abort(new Error("cancelled by tester"));
      return new Error("aborted");
    });
    await expect(
      checkCitationSupport(h.deps, {
        citations: [cite(1, study, "Heat pumps are popular in Norway.")],
        sources: [study],
      }),
    ).rejects.toThrow("cancelled by tester");
  });
});

/** The item id the prompt gave the sentence containing `needle`. */
function idOf(prompt: string, needle: string): number {
  const at = prompt.indexOf(needle);
  const before = prompt.slice(0, at);
  return Number([...before.matchAll(/Item (\d+)/g)].at(-1)?.[1]);
}
