import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import { citations as citationsTable, reports } from "../../../db/schema.ts";
import { apiError } from "../../../test/support/ai-mocks.ts";
import { gate } from "../../../test/support/gate.ts";
import {
  type CallOptions,
  contextLengthError,
  objectModel,
  openReportDb,
  promptParts,
  type ReportHarness,
  reportHarness,
  synthesisModel,
} from "../../../test/support/report-harness.ts";
import type { EngineDeps } from "../deps.ts";
import type { ResearchEvent } from "../events.ts";
import { LANGUAGE_RULE } from "../prompts/synthesis.ts";
import type { CitationRecord, DirectiveRecord, SourceRecord } from "../store.ts";
import { withWritesBehind } from "../writes-behind.ts";
import { citationNumbersIn } from "./citations/markers.ts";
import { REMOVED_CITATION_FLAG, unsupportedMark } from "./citations/verdict-marks.ts";
import { loadContextWindows } from "./model-context.ts";
import { type ReportInput, writePartialReport, writeReport } from "./synthesis.ts";

let db: DatabaseHandle;
beforeAll(async () => {
  db = await openReportDb();
});
afterAll(async () => {
  await db?.close();
});

const QUESTION = "How do heat pumps compare with gas boilers?";

const STUDY_TEXT =
  "Heat pumps reduce household emissions by 60 percent compared with gas boilers, according to the 2023 " +
  "field study of 1,200 homes. Running costs are lower where electricity is cheap.";
const COSTS_TEXT =
  "Installers charge more upfront for heat pumps than for gas boilers: 12,000 euros against 4,000 euros " +
  "on average in 2024.";

/** A judge that calls every item supported. */
const agreeableJudge = () =>
  objectModel("judge", (options) => ({
    verdicts: [...promptParts(options).user.matchAll(/^Item (\d+)$/gm)].map((m) => ({
      id: Number(m[1]),
      verdict: "supported",
      reason: "",
    })),
  }));

interface World {
  h: ReportHarness;
  input: ReportInput;
  study: SourceRecord;
  costs: SourceRecord;
  snippet: SourceRecord;
  directives: DirectiveRecord[];
}

/** A run with three directives, their findings in compression's format, and sources (one without text). */
async function world(models: Parameters<typeof reportHarness>[1], findingsChars = 0): Promise<World> {
  const h = await reportHarness(db, models, QUESTION);
  const emissions = await h.directive("Emissions of heat pumps versus gas boilers. Use field studies.", {
    priority: "critical",
  });
  const costs = await h.directive("Upfront and running costs of both systems.", { priority: "normal" });
  const niche = await h.directive("Noise complaints about heat pumps.", { priority: "low", round: 1 });
  const snippet = await h.source(emissions.id, { url: "https://snippet.example/hit", title: "Snippet hit" });
  const study = await h.source(emissions.id, {
    url: "https://study.example/heat",
    title: "Field study",
    content: STUDY_TEXT,
  });
  const costSource = await h.source(costs.id, {
    url: "https://costs.example/2024",
    title: "Cost survey 2024",
    content: COSTS_TEXT,
  });
  const pad = (tag: string) =>
    findingsChars ? `\n${`${tag} `.repeat(Math.ceil(findingsChars / (tag.length + 1)))}` : "";
  const findings = [
    {
      directiveId: emissions.id,
      findings: [
        "## Findings",
        "Heat pumps cut household emissions by 60 percent [2]. A search snippet claimed 80 percent [1].",
        pad("CRIT"),
        "## Queries and tool calls made",
        '- web_search "heat pump emissions" → 5 results',
        "## Supervisor brief",
        "Covered: emissions. Confidence: medium [2].",
        "",
        "### Sources",
        "[1] Snippet hit — https://snippet.example/hit",
        "[2] Field study — https://study.example/heat",
      ].join("\n"),
    },
    {
      directiveId: costs.id,
      findings: [
        "## Findings",
        "Installers charge 12,000 euros for a heat pump [1].",
        pad("NORM"),
        "",
        "### Sources",
        "[1] Cost survey 2024 — https://costs.example/2024",
      ].join("\n"),
    },
    { directiveId: niche.id, findings: `## Findings\nFew noise complaints were found.${pad("LOWP")}` },
  ];
  const input: ReportInput = {
    question: QUESTION,
    brief: "I want to compare heat pumps and gas boilers on emissions and costs.",
    directives: await h.store.listDirectives(),
    findings,
    sources: await h.store.listSources(),
  };
  return { h, input, study, costs: costSource, snippet, directives: [emissions, costs, niche] };
}

/** The run-wide number the prompt's source list gives `url`. */
function numberIn(user: string, url: string): number {
  const m = user.match(new RegExp(`^\\[(\\d+)\\] [^\\n]* — ${url.replace(/[.]/g, "\\.")}$`, "m"));
  if (!m) throw new Error(`${url} is not in the source list`);
  return Number(m[1]);
}

/** What a decent writer produces from the prompt, plus the usual mistakes to clean up. */
function writtenReport(options: CallOptions): string {
  const { user } = promptParts(options);
  const s = numberIn(user, "https://study.example/heat");
  const c = numberIn(user, "https://costs.example/2024");
  return [
    "# Heat pumps versus gas boilers",
    "",
    `Heat pumps reduce household emissions by 60 percent compared with gas boilers [Field study](https://study.example/heat) [${c}] [${s}]. ` +
      `Running costs are lower where electricity is cheap [${s}][99].`,
    "",
    "## Costs",
    "",
    `Installers charge 12,000 euros for a heat pump [${c}]. A [blog post](https://blog.example/x) disagrees.`,
    "",
    "## References",
    "",
    `[${s}] Field study — https://study.example/heat`,
    `[${c}] Cost survey — https://costs.example/2024`,
  ].join("\n");
}

async function storedCitations(runId: string) {
  return db.db.select().from(citationsTable).where(eq(citationsTable.runId, runId));
}

/** A report with a claim the study does not make and a first-mention link to the wrong page. */
function reportWithUnsupportedClaim(options: CallOptions): string {
  const { user } = promptParts(options);
  const s = numberIn(user, "https://study.example/heat");
  const c = numberIn(user, "https://costs.example/2024");
  return [
    "# Heat pumps versus gas boilers",
    "",
    `The [Field study](https://wrong.example/other-page) [${s}] is the largest so far. ` +
      `Heat pumps last forty years without maintenance [${s}][${c}].`,
    "",
    `Installers charge 12,000 euros for a heat pump [${c}].`,
  ].join("\n");
}

/** A judge that calls the maintenance claim unsupported and everything else supported. */
const sceptic = (onCall?: () => void) =>
  objectModel("judge", (options) => {
    onCall?.();
    const { user } = promptParts(options);
    const items = [...user.matchAll(/^Item (\d+)$/gm)].map((m) => Number(m[1]));
    return {
      verdicts: items.map((id) => {
        const block = user.slice(user.indexOf(`Item ${id}\n`)).split(/\nItem \d+\n/)[0];
        const bad = block.includes("forty years");
        return {
          id,
          verdict: bad ? "unsupported" : "supported",
          reason: bad ? "no lifetime given" : "stated",
        };
      }),
    };
  });

/** The event types of each block the report emits at once (emitMany), in order. */
function recordBlocks(deps: EngineDeps): string[][] {
  const batches: string[][] = [];
  const sink = deps.events;
  deps.events = {
    emit: (e) => sink.emit(e),
    async emitMany(events) {
      batches.push(events.map((e) => e.type));
      for (const e of events) await sink.emit(e);
    },
  };
  return batches;
}

describe("acting on citation checks", () => {
  it("marks an unsupported citation in the stored report and corrects a mismatched first-mention link", async () => {
    const { h, input, study } = await world({
      synthesis: synthesisModel((o) => reportWithUnsupportedClaim(o)),
      judge: sceptic(),
    });
    const out = await writeReport(h.deps, input);
    const [body] = out.markdown.split("\n## Sources\n");
    // Study is [1], costs [2] in reading order.
    expect(body).toContain("The [Field study](https://study.example/heat) [1] is the largest so far.");
    expect(body).not.toContain("wrong.example");
    expect(body).toContain(
      `Heat pumps last forty years without maintenance [1][2]${unsupportedMark([1, 2])}.`,
    );
    expect(body).toContain("Installers charge 12,000 euros for a heat pump [2].");
    expect(h.eventsOf("report.link_corrected")).toEqual([
      {
        type: "report.link_corrected",
        sourceId: study.id,
        from: "https://wrong.example/other-page",
        to: "https://study.example/heat",
      },
    ]);
    const rows = await storedCitations(h.runId);
    const claim = rows.filter((r) => r.sentence.includes("forty years"));
    expect(claim.map((r) => r.support)).toEqual(["unsupported", "unsupported"]);
    expect(claim[0].reason).toBe("model: no lifetime given; marked in the report");
    // The same reason as data, stored and read back by the engine's store and carried by the event.
    const marked = { code: "verdict_model", values: { said: "no lifetime given", handled: "marked" } };
    expect(claim.map((r) => r.because)).toEqual([marked, marked]);
    const read = (await h.store.listCitations()).filter((r) => r.sentence.includes("forty years"));
    expect(read.map((r) => r.because)).toEqual([marked, marked]);
    const verdicts = h.eventsOf("report.completed")[0].verdicts ?? [];
    expect(verdicts.filter((v) => v.support === "unsupported").map((v) => v.because)).toEqual([
      marked,
      marked,
    ]);
    expect(verdicts.find((v) => v.support === "supported")?.because).toEqual({
      code: "verdict_model",
      values: { said: "stated", handled: "kept" },
    });
    expect(claim[0].passage).toBeTruthy();
    expect(out.citationStats).toMatchObject({ unsupported: 2, marked: 2, removed: 0, correctedLinks: 1 });
    expect((await h.store.getReport())?.markdown).toBe(out.markdown);
  });

  it("checks citations while the unchecked report is stored; its last two events are one write", async () => {
    let judged: () => void = () => {};
    const judging = new Promise<void>((resolve) => {
      judged = resolve;
    });
    const { h, input } = await world({
      synthesis: synthesisModel((o) => reportWithUnsupportedClaim(o)),
      judge: sceptic(() => judged()),
    });
    // The unchecked report is stored only once the judge was asked: were the check to wait for that
    // write, neither would ever finish.
    const saved: boolean[] = [];
    const firstRows: CitationRecord[][] = [];
    h.deps.store = {
      ...h.store,
      async saveReport(report) {
        if (!saved.length) await judging;
        saved.push(report.citationStats.unchecked === 0);
        return h.store.saveReport(report);
      },
      async saveCitations(rows) {
        if (!firstRows.length) firstRows.push(rows);
        return h.store.saveCitations(rows);
      },
    };
    const batches = recordBlocks(h.deps);
    const out = await writeReport(h.deps, input);
    // The unchecked report first, then the checked one: a resumed run never sees them swapped.
    expect(saved).toEqual([false, true]);
    expect(firstRows[0].map((r) => [r.reason, r.because])).toContainEqual([
      "not checked yet",
      { code: "verdict_not_checked_yet" },
    ]);
    expect((await h.store.getReport())?.markdown).toBe(out.markdown);
    expect(batches).toEqual([
      ["report.citations", "report.link_corrected"],
      ["report.support_checked", "report.completed"],
    ]);
  });

  it("stores the report once, checked, when the check makes no model call; its events are one write", async () => {
    let judgeCalls = 0;
    const { h, input } = await world({
      synthesis: synthesisModel((o) => reportWithUnsupportedClaim(o)),
      judge: sceptic(() => judgeCalls++),
    });
    // No model-judged citations allowed: the lexical pass decides, and nothing waits for a model.
    h.deps.config = { ...h.deps.config, maxCitationChecks: 0 };
    const saves: string[] = [];
    h.deps.store = {
      ...h.store,
      async saveReport(report) {
        saves.push(`report (${report.citationStats.unchecked} unchecked)`);
        return h.store.saveReport(report);
      },
      async saveCitations(rows) {
        saves.push(
          `citations (${rows.filter((r) => r.reason === "not checked yet").length} not checked yet)`,
        );
        return h.store.saveCitations(rows);
      },
    };
    const batches = recordBlocks(h.deps);
    const out = await writeReport(h.deps, input);
    expect(judgeCalls).toBe(0);
    const unchecked = out.citationStats.unchecked;
    // One save of each, the checked ones (an earlier "not checked yet" save would be undone at once).
    expect(saves).toEqual(["citations (0 not checked yet)", `report (${unchecked} unchecked)`]);
    const overBudget = (await storedCitations(h.runId)).filter((r) =>
      r.reason?.startsWith("beyond the check budget"),
    );
    expect(overBudget.length).toBeGreaterThan(0);
    expect(overBudget[0].because).toEqual({ code: "verdict_over_budget", values: { max: 0 } });
    expect(batches).toEqual([
      ["report.citations", "report.link_corrected", "report.support_checked", "report.completed"],
    ]);
  });

  it("with strictCitations removes the unsupported citation and flags the sentence", async () => {
    const { h, input } = await world({
      synthesis: synthesisModel((o) => reportWithUnsupportedClaim(o)),
      judge: sceptic(),
    });
    h.deps.config = { ...h.deps.config, strictCitations: true };
    const out = await writeReport(h.deps, input);
    const [body] = out.markdown.split("\n## Sources\n");
    expect(body).toContain(`Heat pumps last forty years without maintenance${REMOVED_CITATION_FLAG}.`);
    expect(body).not.toMatch(/maintenance \[/);
    expect(body).toContain("Installers charge 12,000 euros for a heat pump [2].");
    const rows = await storedCitations(h.runId);
    expect(rows.filter((r) => r.sentence.includes("forty years")).map((r) => r.reason)).toEqual([
      "model: no lifetime given; removed from the report (strictCitations)",
      "model: no lifetime given; removed from the report (strictCitations)",
    ]);
    expect(rows.filter((r) => r.sentence.includes("forty years")).map((r) => r.because?.values)).toEqual([
      { said: "no lifetime given", handled: "removed" },
      { said: "no lifetime given", handled: "removed" },
    ]);
    expect(out.citationStats).toMatchObject({ unsupported: 2, marked: 0, removed: 2 });
    expect(h.eventsOf("report.support_checked")[0]).toMatchObject({ removed: 2 });
  });
});

describe("writeReport", () => {
  it("stores a report whose every [N] resolves to a source with text, with checked citation rows", async () => {
    const synthesis = synthesisModel((o) => writtenReport(o));
    const { h, input, study, costs } = await world({ synthesis, judge: agreeableJudge() });
    const out = await writeReport(h.deps, input);

    const stored = await h.store.getReport();
    expect(stored).toEqual({ markdown: out.markdown, partial: false });
    const [body, list] = out.markdown.split("\n## Sources\n");
    expect(list).toBe(
      "\n[1] [Cost survey 2024](https://costs.example/2024)\n\n[2] [Field study](https://study.example/heat)\n",
    );
    const rows = await h.store.listSources();
    const entries = new Map(
      [...list.matchAll(/^\[(\d+)\] \[.*\]\((.+)\)$/gm)].map((m) => [Number(m[1]), m[2]]),
    );
    const numbers = citationNumbersIn(body);
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) {
      const row = rows.find((r) => r.url === entries.get(n));
      expect(row?.content?.trim(), `[${n}] resolves to a source with text`).toBeTruthy();
    }
    expect(body).not.toContain("[99]");
    expect(body).not.toContain("blog.example");
    expect(body).not.toContain("## References");
    expect(body).toContain("[Field study](https://study.example/heat) [1][2]");

    const cited = await storedCitations(h.runId);
    expect(cited.length).toBe(4);
    expect(new Set(cited.map((c) => c.sourceId))).toEqual(new Set([study.id, costs.id]));
    expect(cited.every((c) => c.support === "supported")).toBe(true);
    const [report] = await db.db.select().from(reports).where(eq(reports.runId, h.runId));
    expect(report.citationStats).toEqual({
      kept: 4,
      removedUnknown: 1,
      flattenedLinks: 1,
      strippedBibliography: true,
      citedSources: 2,
      correctedLinks: 0,
      linkCorrections: [],
      supported: 4,
      partially_supported: 0,
      unsupported: 0,
      unchecked: 0,
      marked: 0,
      removed: 0,
    });
    expect(out.citationStats).toEqual(report.citationStats);

    const types = h.events.map((e) => e.type).filter((t) => t !== "report.delta");
    expect(types).toEqual([
      "report.started",
      "report.citations",
      "report.support_checked",
      "report.completed",
    ]);
    expect(h.eventsOf("report.citations")[0]).toEqual({
      type: "report.citations",
      kept: 4,
      removedUnknown: 1,
      flattenedLinks: 1,
    });
    // The event carries the report as stored, so a page following the run needs no read.
    expect(h.eventsOf("report.completed")[0]).toEqual({
      type: "report.completed",
      chars: out.markdown.length,
      citations: 2,
      partial: false,
      markdown: report.markdown,
      citationStats: report.citationStats,
      verdicts: cited
        .map(({ number, sourceId, sentence, support, reason, because }) => ({
          number,
          sourceId,
          sentence,
          support,
          reason,
          because,
        }))
        .sort((a, b) => a.number - b.number),
    });
  });

  it("gives the writer run-wide numbers: local citations mapped by URL, uncitable ones removed", async () => {
    const synthesis = synthesisModel((o) => writtenReport(o));
    const { h, input } = await world({ synthesis, judge: agreeableJudge() });
    await writeReport(h.deps, input);
    const { user } = promptParts(synthesis.doStreamCalls[0]);
    const s = numberIn(user, "https://study.example/heat");
    const c = numberIn(user, "https://costs.example/2024");
    expect(user).toContain(`Heat pumps cut household emissions by 60 percent [${s}].`);
    // The snippet-only source has no text: not listed, and its local [1] is gone.
    expect(user).not.toContain("snippet.example");
    expect(user).toContain("A search snippet claimed 80 percent.");
    expect(user).toContain(`Installers charge 12,000 euros for a heat pump [${c}].`);
    expect(user).toContain(`Confidence: medium [${s}].`);
    // Researchers' own source lists and tool logs are not passed on; findings are delimited as data.
    expect(user).not.toContain("Queries and tool calls made");
    expect(user.match(/<untrusted_web_data kind="findings"/g)).toHaveLength(3);
  });

  it("states the language rule twice: in the system prompt and at the end of the message", async () => {
    const synthesis = synthesisModel((o) => writtenReport(o));
    const { h, input } = await world({ synthesis, judge: agreeableJudge() });
    await writeReport(h.deps, input);
    const { system, user } = promptParts(synthesis.doStreamCalls[0]);
    const count = (s: string) => s.split(LANGUAGE_RULE).length - 1;
    expect(count(system)).toBe(1);
    expect(count(user)).toBe(1);
    expect(LANGUAGE_RULE).toMatch(/SAME LANGUAGE AS THE RESEARCH QUESTION/);
    expect(user.trimEnd().endsWith(LANGUAGE_RULE)).toBe(true);
    expect(user).toContain(QUESTION);
  });

  it("streams the report as report.delta events while it is written", async () => {
    let raw = "";
    const synthesis = synthesisModel((o) => {
      raw = writtenReport(o);
      return raw;
    });
    const { h, input } = await world({ synthesis, judge: agreeableJudge() });
    await writeReport(h.deps, input);
    const deltas = h.eventsOf("report.delta");
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((d) => d.text).join("")).toBe(raw);
    const started = h.events.findIndex((e) => e.type === "report.started");
    const firstDelta = h.events.findIndex((e) => e.type === "report.delta");
    const citationsAt = h.events.findIndex((e) => e.type === "report.citations");
    expect(started).toBeLessThan(firstDelta);
    expect(h.events.findLastIndex((e) => e.type === "report.delta")).toBeLessThan(citationsAt);
  });

  it("with writes behind, asks for the report while report.started is being written, and keeps it first", async () => {
    const log: string[] = [];
    const called = gate();
    const synthesis = synthesisModel((o) => {
      log.push("report asked for");
      called.open();
      return writtenReport(o);
    });
    const { h, input } = await world({ synthesis, judge: agreeableJudge() });
    const emit = h.deps.events.emit;
    const held = {
      emit: async (e: ResearchEvent) => {
        if (e.type === "report.started") {
          await called.openedOrAfter();
          log.push("report.started stored");
        }
        return emit(e);
      },
    };
    const deps = withWritesBehind({ ...h.deps, events: held });
    // As the engine calls it after research: each directive's sources are in hand, nothing is read first.
    const ids = input.directives.map((d) => d.id);
    const directiveSources = await h.store.listSourcesOfDirectives(ids);
    await writeReport(deps, { ...input, directiveSources });
    expect(log).toEqual(["report asked for", "report.started stored"]);
    expect(h.events[0].type).toBe("report.started");
    expect(h.events.findIndex((e) => e.type === "report.delta")).toBeGreaterThan(0);
  });

  it("on context-window errors shrinks the findings, lowest priority first, never the system prompt", async () => {
    const synthesis = synthesisModel((o, n) => (n < 2 ? contextLengthError() : writtenReport(o)));
    const { h, input } = await world({ synthesis, judge: agreeableJudge() }, 9000);
    const out = await writeReport(h.deps, input, {
      contextWindows: loadContextWindows({ MODEL_CONTEXT_WINDOWS: '{"mock:synthesis": 7600}' }),
    });
    expect(out.partial).toBe(false);
    const calls = synthesis.doStreamCalls.map(promptParts);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.system)).size).toBe(1);
    expect(calls[0].system.length).toBeGreaterThan(1000);
    const tally = (text: string, tag: string) => text.split(`${tag} `).length - 1;
    const of = (tag: string) => calls.map((c) => tally(c.user, tag));
    const full = of("CRIT")[0];
    expect(full).toBeGreaterThan(1500);
    // First the low-priority findings are dropped, then the normal ones cut; the critical stay whole.
    expect(of("LOWP")[0]).toBeGreaterThan(1500);
    expect(of("LOWP")).toEqual([of("LOWP")[0], 0, 0]);
    expect(of("NORM")[1]).toBe(of("NORM")[0]);
    expect(of("NORM")[2]).toBeGreaterThan(0);
    expect(of("NORM")[2]).toBeLessThan(of("NORM")[0]);
    expect(of("CRIT")).toEqual([full, full, full]);
    expect(calls[1].user).toContain("the findings of 1 lower-priority research topic were left out");
    for (const c of calls) expect(c.user.endsWith(LANGUAGE_RULE)).toBe(true);
    const retries = h.eventsOf("token_limit.retry");
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    // Each retry is at least 10% below the last budget (and below what was really sent, see token-recovery).
    expect(retries[1].budgetChars).toBeLessThanOrEqual(Math.floor(retries[0].budgetChars * 0.9));
    expect(retries[1].budgetChars).toBeGreaterThan(0);
    expect(retries[1].removedChars).toBeGreaterThan(retries[0].removedChars);
    expect(retries.every((r) => r.phase === "synthesis")).toBe(true);
  });

  it("writes a partial report from the findings that fit after three failed retries", async () => {
    const synthesis = synthesisModel(() => contextLengthError());
    const { h, input } = await world({ synthesis, judge: agreeableJudge() }, 9000);
    const out = await writeReport(h.deps, input, {
      contextWindows: loadContextWindows({ MODEL_CONTEXT_WINDOWS: '{"mock:synthesis": 9000}' }),
    });
    expect(synthesis.doStreamCalls).toHaveLength(4);
    expect(h.eventsOf("token_limit.retry")).toHaveLength(3);
    expect(out.partial).toBe(true);
    expect(await h.store.getReport()).toEqual({ markdown: out.markdown, partial: true });
    expect(out.markdown.startsWith(`# ${QUESTION}\n\n> **Partial report.**`)).toBe(true);
    expect(out.markdown).toContain("## Emissions of heat pumps versus gas boilers");
    expect(out.markdown).toContain("Heat pumps cut household emissions by 60 percent [1].");
    expect(out.markdown).not.toContain("LOWP");
    expect(out.markdown).toContain("## Sources\n\n[1] [Field study](https://study.example/heat)");
    expect(h.eventsOf("report.completed")[0]).toMatchObject({ partial: true });
  });

  it("lets other errors through without retrying or storing anything", async () => {
    const synthesis = synthesisModel(() =>
      apiError({
        status: 401,
        body: { error: { message: "Incorrect API key provided", code: "invalid_api_key" } },
      }),
    );
    const { h, input } = await world({ synthesis, judge: agreeableJudge() });
    await expect(writeReport(h.deps, input)).rejects.toThrow(/Incorrect API key/);
    expect(synthesis.doStreamCalls).toHaveLength(1);
    expect(h.eventsOf("token_limit.retry")).toEqual([]);
    expect(await h.store.getReport()).toBeUndefined();
  });

  it("falls back to the findings, marked partial, when the writer returns nothing", async () => {
    const synthesis = synthesisModel(() => "   ");
    const { h, input } = await world({ synthesis, judge: agreeableJudge() });
    const out = await writeReport(h.deps, input);
    expect(out.partial).toBe(true);
    expect(out.markdown).toContain("> **Partial report.** The writing model returned an empty report");
    expect(out.markdown).toContain("Installers charge 12,000 euros for a heat pump [2].");
  });

  it("a report written early says so at the top and is stored as partial", async () => {
    const synthesis = synthesisModel((o) => writtenReport(o));
    const { h, input } = await world({ synthesis, judge: agreeableJudge() });
    const out = await writeReport(h.deps, { ...input, writtenEarly: true });
    expect(out.partial).toBe(true);
    expect(out.markdown).toMatch(
      /^> \*\*Partial report\.\*\* Research was stopped early at the owner's request; this report rests on 3 of 3 research topics/,
    );
    expect(await h.store.getReport()).toMatchObject({ partial: true });
    expect(h.eventsOf("report.completed")[0]).toMatchObject({ partial: true });
  });
});

describe("writePartialReport", () => {
  it("assembles, post-processes and stores a partial report without any model call", async () => {
    const { h, input } = await world({});
    const out = await writePartialReport(h.deps, {
      ...input,
      reason: "The run's budget was exhausted: 9000 tokens used",
      because: { code: "budget_exhausted", values: { said: "9000 tokens used" } },
    });
    // The reason in the report's words (not the API's English sentence), the provider's part as said.
    expect(out?.markdown).toContain(
      "> **Partial report.** The run stopped before the report could be written (its budget ran out: 9000 tokens used).",
    );
    expect(await h.store.getReport()).toMatchObject({ partial: true });
    const cited = await storedCitations(h.runId);
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((c) => c.support === "unchecked")).toBe(true);
    expect(cited.every((c) => c.because?.code === "verdict_no_model")).toBe(true);
    expect(h.eventsOf("report.support_checked")[0]).toMatchObject({ unchecked: cited.length });
  });

  it("writes nothing when nothing was gathered", async () => {
    const { h, input } = await world({});
    expect(await writePartialReport(h.deps, { ...input, findings: [], reason: "x" })).toBeUndefined();
    expect(await h.store.getReport()).toBeUndefined();
  });
});
