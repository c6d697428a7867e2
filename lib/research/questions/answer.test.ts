// Follow-up answers with mock models: the thread's source numbers, the prompt (report, the last
// three turns, passages as data), citations resolved and checked by the report's own check, and
// the "not in the sources" path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import {
  objectModel,
  openReportDb,
  promptParts,
  reportHarness,
  synthesisModel,
} from "../../../test/support/report-harness.ts";
import { answerQuestion } from "./answer.ts";
import { threadSourceNumbers } from "./numbering.ts";

let db: DatabaseHandle;
beforeAll(async () => {
  db = await openReportDb();
});
afterAll(() => db?.close());

const STUDY =
  "Heat pumps reduce household emissions by 60 percent compared with gas boilers, according to the 2023 " +
  "field study of 1,200 homes. Installation costs remain higher.";
const GERMANY = "In Germany, 356,000 heat pumps were installed in 2023, a record year for the country.";
const REPORT =
  "# Heat pumps\n\nHeat pumps cut emissions [1].\n\n## Sources\n\n1. [Field study](https://study.example/heat)\n";

async function run(models: Parameters<typeof reportHarness>[1]) {
  const h = await reportHarness(db, models);
  const d = await h.directive("Heat pumps versus gas boilers");
  const study = await h.source(d.id, {
    url: "https://study.example/heat",
    title: "Field study",
    content: STUDY,
  });
  const hit = await h.source(d.id, { url: "https://hit.example/only-seen", title: "Seen only" });
  const germany = await h.source(d.id, {
    url: "https://de.example/pumps",
    title: "German market",
    content: GERMANY,
  });
  const sources = await h.store.listSources();
  // The report cites the study as [1]; the German page was read but not cited in the report.
  const numbered = threadSourceNumbers([{ number: 1, sourceId: study.id }], sources);
  return { h, study, hit, germany, numbered };
}

describe("thread numbers", () => {
  it("keeps the report's numbers and gives other read sources the next free ones; unread hits get none", async () => {
    const { study, germany, hit, numbered, h } = await run({});
    expect(numbered.get(1)?.id).toBe(study.id);
    expect(numbered.get(2)?.id).toBe(germany.id);
    expect([...numbered.values()].some((s) => s.id === hit.id)).toBe(false);
    // Asked again (another question of the thread), the numbers are the same.
    const again = threadSourceNumbers([{ number: 1, sourceId: study.id }], await h.store.listSources());
    expect([...again].map(([n, s]) => [n, s.id])).toEqual([...numbered].map(([n, s]) => [n, s.id]));
    // A report that cites a later source with a high number: the others follow it.
    const gap = threadSourceNumbers([{ number: 4, sourceId: germany.id }], await h.store.listSources());
    expect(gap.get(4)?.id).toBe(germany.id);
    expect(gap.get(5)?.id).toBe(study.id);
  });
});

describe("answering a follow-up question", () => {
  it("streams an answer from the passages whose every [N] is a read source with a verdict and passage", async () => {
    let prompt = { system: "", user: "" };
    const synthesis = synthesisModel((options) => {
      prompt = promptParts(options);
      return "In Germany, 356,000 heat pumps were installed in 2023 [2]. Emissions fall too [1][7].";
    });
    const judge = objectModel("judge", () => ({
      verdicts: [{ id: 1, verdict: "partially_supported", reason: "r" }],
    }));
    const { h, germany, study, numbered } = await run({ synthesis, judge });
    const deltas: string[] = [];
    const thread = [1, 2, 3, 4].map((i) => ({
      question: `earlier question ${i}`,
      answer: `earlier answer ${i}`,
    }));
    const out = await answerQuestion(
      h.deps,
      {
        question: "And in Germany?",
        report: REPORT,
        thread,
        passages: [{ sourceId: germany.id, text: GERMANY }],
        numbered,
      },
      (d) => deltas.push(d),
    );
    expect(deltas.join("")).toContain("356,000");
    expect(out.status).toBe("answered");
    // [7] names no read source: removed. [1] and [2] stay, with the thread's numbers.
    expect(out.answer).toBe(
      "In Germany, 356,000 heat pumps were installed in 2023 [2]. Emissions fall too [1].",
    );
    expect(out.citations.map((c) => [c.n, c.sourceId])).toEqual([
      [2, germany.id],
      [1, study.id],
    ]);
    const germanCitation = out.citations[0];
    expect(germanCitation.support).toBe("supported");
    expect(germanCitation.passage).toContain("356,000");
    expect(out.model).toBe("mock:synthesis");
    // The report, the last three turns (not the fourth-last) and the passages went as data.
    expect(prompt.user).toContain("<research_report>");
    expect(prompt.user).toContain("Heat pumps cut emissions [1].");
    expect(prompt.user).toContain("<earlier_questions>");
    expect(prompt.user).not.toContain("earlier question 1");
    for (const i of [2, 3, 4])
      expect(prompt.user).toContain(`Question: earlier question ${i}\nAnswer: earlier answer ${i}`);
    expect(prompt.user).toMatch(
      /<untrusted_web_data source="2" url="https:\/\/de.example\/pumps">\n\[2\] German market/,
    );
    expect(prompt.user.trim().endsWith("The question: And in Germany?")).toBe(true);
    expect(prompt.system).toContain("do not answer it");
  });

  it("is not_in_sources without a passage, and asks no model", async () => {
    const synthesis = synthesisModel(() => new Error("the model must not be asked"));
    const { h, numbered } = await run({ synthesis });
    const out = await answerQuestion(h.deps, {
      question: "What about Mars?",
      report: REPORT,
      thread: [],
      passages: [],
      numbered,
    });
    expect(out).toMatchObject({ status: "not_in_sources", answer: null, citations: [], model: null });
  });

  it("is not_in_sources when no sentence of the answer is supported", async () => {
    const synthesis = synthesisModel(() => "Prices in Norway doubled [2]. Wind is cheaper [9].");
    const judge = objectModel("judge", () => ({
      verdicts: [{ id: 1, verdict: "unsupported", reason: "no" }],
    }));
    const { h, germany, numbered } = await run({ synthesis, judge });
    const out = await answerQuestion(
      h.deps,
      {
        question: "And in Norway?",
        report: REPORT,
        thread: [],
        passages: [{ sourceId: germany.id, text: GERMANY }],
        numbered,
      },
      () => {},
    );
    expect(out.status).toBe("not_in_sources");
    expect(out.answer).toBeNull();
    // The call was made and is accounted for.
    expect(out.model).toBe("mock:synthesis");
    expect(out.usage).not.toBeNull();
  });
});
