import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import { getRun } from "../../../db/queries/runs.ts";
import {
  objectModel,
  openReportDb,
  promptParts,
  reportHarness,
} from "../../../test/support/report-harness.ts";
import type { SourceRecord } from "../store.ts";
import type { ReportCitation } from "./citations/index.ts";
import { checkCitationSupport, excerptWindows, lexicalSupport, relevantExcerpt } from "./support.ts";

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

  it("gives the same passages from a source's windows cut once, for every sentence citing it", () => {
    // Sentences, with a line break after every fourth (both split the text into passages).
    const text = Array.from(
      { length: 80 },
      (_, i) =>
        `Sentence ${i} says heat pumps reached a COP of ${(2 + i / 40).toFixed(2)} in trial ${i}.${i % 4 === 3 ? "\n" : " "}`,
    ).join("");
    const windows = excerptWindows(text);
    expect(windows.windows.length).toBeGreaterThan(5);
    for (const sentence of [
      "Trial 12 reached a COP of 2.30.",
      "Heat pumps in trial 71 reached 3.77.",
      "Nothing here matches gardens.",
    ]) {
      expect(relevantExcerpt(windows, sentence, 500)).toBe(relevantExcerpt(text, sentence, 500));
    }
  });
});

describe("checkCitationSupport", () => {
  it("settles clear cases lexically and judges the rest in one batched call", async () => {
    const { h, model, study, other } = await setup((options) => {
      const { user } = promptParts(options);
      const verdicts = [];
      if (user.includes("75 percent"))
        verdicts.push({ id: idOf(user, "75 percent"), verdict: "unsupported", reason: "" });
      if (user.includes("Wärmepumpen"))
        verdicts.push({ id: idOf(user, "Wärmepumpen"), verdict: "supported", reason: " " });
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
    expect(r.counts).toEqual({ supported: 2, partially_supported: 0, unsupported: 1, unchecked: 1 });
    expect(r).toMatchObject({ lexicallySupported: 1, sentToModel: 3 });
    expect(r.records[0].reason).toMatch(/^lexical: /);
    expect(r.records[1].reason).toBe("model: unsupported");
    expect(r.records[3].reason).toBe("the model gave no verdict for it");
    // Each reason as data too, for a page in another language (lib/research/because.ts).
    expect(r.records[0].because).toEqual({ code: "verdict_quoted" });
    expect(r.records[1].because).toEqual({
      code: "verdict_model_silent",
      values: { verdict: "unsupported", handled: "kept" },
    });
    expect(r.records[3].because).toEqual({ code: "verdict_missing" });
    expect(r.records[1].passage).toContain("60 percent");
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
    expect(r.records[1].reason).toMatch(/^the check failed: .*upstream exploded/);
    // The provider's words are kept as they were said.
    expect(r.records[1].because).toEqual({
      code: "verdict_check_failed",
      values: { said: expect.stringContaining("upstream exploded") },
    });
    expect(r.counts).toEqual({ supported: 1, partially_supported: 0, unsupported: 0, unchecked: 1 });
    // The run says why its citations went unchecked, and the run page shows the notice.
    expect((await getRun(db.db, h.runId))?.degradations).toMatchObject([
      { step: "citation_check", model: "mock:judge", error: "upstream exploded" },
    ]);
    expect(h.eventsOf("run.degraded").map((e) => e.notice)).toEqual([
      "Citations were not checked: mock:judge failed — upstream exploded",
    ]);
  });

  it("records unchecked when the model never gives a valid object", async () => {
    const { h, study, model } = await setup(() => "not json at all");
    const r = await checkCitationSupport(h.deps, {
      citations: [cite(1, study, "Heat pumps are popular in Norway.")],
      sources: [study],
    });
    expect(r.counts).toEqual({ supported: 0, partially_supported: 0, unsupported: 0, unchecked: 1 });
    expect(r.records[0]).toMatchObject({
      reason: "the model's verdicts could not be read",
      because: { code: "verdict_unreadable" },
    });
    expect(model.doGenerateCalls.length).toBeGreaterThan(1); // re-asked before giving up
    expect(h.eventsOf("run.degraded")[0].notice).toMatch(
      /^Citations were not checked: mock:judge gave no usable answer after 3 tries — /,
    );
  });

  it("settles an exact quote with no model call", async () => {
    const { h, study, model } = await setup(() => new Error("the model must not be asked"));
    // Too few content terms for the overlap rule, but quoted word for word from the source.
    const quote = "Installation costs remain higher.";
    const r = await checkCitationSupport(h.deps, { citations: [cite(1, study, quote)], sources: [study] });
    expect(r.records[0]).toMatchObject({ support: "supported", passage: STUDY.trim() });
    expect(r.records[0].reason).toMatch(/verbatim/);
    expect(r.records[0].because).toEqual({ code: "verdict_quoted" });
    expect(r).toMatchObject({ lexicallySettled: 1, sentToModel: 0 });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("says the share of the sentence's terms found in the source as a number, not only in English", async () => {
    const { h, study } = await setup(() => new Error("the model must not be asked"));
    // 7 of its 8 terms occur in the source ("Sweden" does not), and its one number does.
    const sentence = "Heat pumps reduce household emissions by 60 percent in Sweden.";
    const r = await checkCitationSupport(h.deps, { citations: [cite(1, study, sentence)], sources: [study] });
    expect(r.records[0]).toMatchObject({
      support: "supported",
      reason: "lexical: 88% of the sentence's terms and all its numbers occur in the source",
      because: { code: "verdict_overlap", values: { percent: 88 } },
    });
  });

  it("checks every citation beyond 40 in batches, and says why the ones past the budget stay unchecked", async () => {
    const { h, study, model } = await setup((options) => {
      const { user } = promptParts(options);
      const ids = [...user.matchAll(/^Item (\d+)$/gm)].map((m) => Number(m[1]));
      return {
        verdicts: ids.map((id) => ({
          id,
          verdict: id % 2 ? "partially_supported" : "unsupported",
          reason: "the excerpt names no such town",
        })),
      };
    });
    const citations = Array.from({ length: 95 }, (_, i) =>
      cite(1, study, `Heat pumps are common in town number ${i + 1000}.`),
    );
    const r = await checkCitationSupport(h.deps, { citations, sources: [study], maxChecks: 90 });
    // 90 judged in batches of 40, 40, 10; the last 5 are past the budget.
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(r.sentToModel).toBe(90);
    expect(r.records.slice(0, 90).every((c) => c.support !== "unchecked")).toBe(true);
    expect(r.records[0]).toMatchObject({
      support: "partially_supported",
      reason: "model: the excerpt names no such town",
      because: { code: "verdict_model", values: { said: "the excerpt names no such town", handled: "kept" } },
    });
    expect(r.records.slice(90).map((c) => c.support)).toEqual(Array(5).fill("unchecked"));
    expect(r.records[94].reason).toBe("beyond the check budget of 90 model-judged citations per report");
    expect(r.records[94].because).toEqual({ code: "verdict_over_budget", values: { max: 90 } });
    expect(r.counts).toEqual({ supported: 0, partially_supported: 45, unsupported: 45, unchecked: 5 });
  });

  it("leaves a citation of a source without text unchecked with the reason", async () => {
    const { h, study } = await setup(() => new Error("not called"));
    const bare = { ...study, id: "bare", content: null };
    const r = await checkCitationSupport(h.deps, {
      citations: [cite(1, bare, "Heat pumps are popular in Norway.")],
      sources: [bare],
    });
    expect(r.records[0]).toMatchObject({
      support: "unchecked",
      reason: "the source has no stored text",
      because: { code: "verdict_no_text" },
    });
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
