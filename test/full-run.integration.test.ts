// A whole research run, end to end without Next.js: the real orchestrator and phases, the real
// drizzle store on in-memory PGlite, the real library search provider (PostgreSQL full-text
// search over the owner's documents), no network, and one mock model answering every role by what
// it is asked. Checked through the stored rows: the run, its sources, the report, its citations and
// their support verdicts, and the knowledge items (issue 6's acceptance).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { getRun } from "../db/queries/runs.ts";
import { citations, directiveSources, directives, knowledgeItems, reports, sources } from "../db/schema.ts";
import { LANGUAGE_RULE } from "../lib/research/prompts/synthesis.ts";
import { normalizeUrl } from "../lib/search/url.ts";
import {
  type KnowledgeAnswer,
  type NumberedSource,
  runScenario,
  type Scenario,
  type ScenarioDirective,
  type ScenarioRun,
} from "./support/engine-harness.ts";
import { openEngineDb } from "./support/researcher-harness.ts";

const EFFICIENCY = "Heat pump efficiency explained";
const COSTS = "Heat pump running costs compared with gas boilers";
const COLD = "Cold-climate heat pump performance";
const COSTS_URL = "https://energy-advice.example.org/heat-pump-running-costs";

/** The source of `title` in a numbered list; a missing one fails the mock loudly (recorded as a problem). */
function numbered(list: NumberedSource[], title: string): NumberedSource {
  const s = list.find((x) => x.title === title);
  if (!s)
    throw new Error(`"${title}" is not in the numbered source list: ${list.map((x) => x.title).join(" | ")}`);
  return s;
}

function heatPumpReport(list: NumberedSource[]): string {
  const e = numbered(list, EFFICIENCY);
  const c = numbered(list, COSTS);
  const k = numbered(list, COLD);
  return [
    "# Heat pumps: efficiency, running costs and cold climates",
    "",
    "Heat pumps turn one unit of electricity into about three units of heat and cost less to run than gas boilers.",
    "",
    "## Efficiency",
    "",
    `[${e.title}](${e.url}) [${e.number}] reports that an air-source heat pump delivers a seasonal coefficient of performance of 3.2 in a typical house. ` +
      `One kilowatt-hour of electricity therefore yields 3.2 kilowatt-hours of heat [${e.number}]. ` +
      "Some installers promise a coefficient of performance of 5 [99].",
    "",
    "## Running costs",
    "",
    `According to [${c.title}](${c.url}) [${c.number}], running a heat pump costs about 30% less per year than running a gas boiler when electricity costs 25 cents per kilowatt-hour. ` +
      `Some campaigns claim heat pumps cut heating bills by 90% [${c.number}]. ` +
      "Trade magazines such as [Heating Weekly](https://heating-weekly.example.com/heat-pumps) make similar points.",
    "",
    "## Cold climates",
    "",
    `[${k.title}](${k.url}) [${k.number}] shows that cold-climate heat pump models continue to operate at outdoor temperatures as low as -25 °C. ` +
      `Even in hard frosts the units keep heating, with a coefficient of performance above 2 at -15 °C [${k.number}][${e.number}].`,
    "",
    "## Conclusions",
    "",
    `Heat pumps are efficient [${e.number}], cheaper to run [${c.number}] and work in cold climates [${k.number}].`,
    "",
    "## References",
    "",
    "1. [Made-up Heat Journal](https://made-up.example.org/heat) — 2021",
    "[2] Imaginary Energy Review — https://imaginary.example.org/review",
  ].join("\n");
}

function heatPumpKnowledge(list: NumberedSource[]): KnowledgeAnswer {
  const e = numbered(list, EFFICIENCY);
  const k = numbered(list, COLD);
  return {
    items: [
      {
        category: "finding",
        content:
          "An air-source heat pump reaches a seasonal coefficient of performance of 3.2 in a typical house.",
        sources: [e.number],
        confidence: 0.7,
        needs_review: false,
      },
      {
        category: "finding",
        content: "Cold-climate heat pumps keep operating down to -25 °C.",
        sources: [k.number],
        confidence: 0.6,
        needs_review: true,
      },
      {
        category: "lesson",
        content: "The owner's own library held the most specific running-cost figures for heat pumps.",
        sources: [],
        confidence: 0.5,
        needs_review: false,
      },
      {
        category: "domain",
        content:
          "The seasonal coefficient of performance (SCOP) is the standard measure of heat pump efficiency.",
        sources: [e.number, 42],
        confidence: 0.8,
        needs_review: false,
      },
    ],
  };
}

const HEAT_PUMPS: Scenario = {
  question:
    "Are heat pumps worth it: how efficient are they, what do they cost to run, and do they work in cold climates?",
  brief:
    "I want to understand whether a heat pump is worth installing in a typical house: its seasonal efficiency in practice, its annual running costs against a gas boiler, and how it performs in cold weather, from measured data.",
  docs: [
    {
      key: "efficiency",
      title: EFFICIENCY,
      content:
        "An air-source heat pump delivers a seasonal coefficient of performance (SCOP) of 3.2 in a typical house. " +
        "One kilowatt-hour of electricity therefore yields 3.2 kilowatt-hours of heat. Efficiency falls as the flow " +
        "temperature rises: above 55 degrees the coefficient of performance drops below 2.5.",
    },
    {
      key: "costs",
      title: COSTS,
      sourceUrl: COSTS_URL,
      content:
        "Running a heat pump costs about 30% less per year than running a gas boiler when electricity costs 25 cents " +
        "per kilowatt-hour. Annual running costs for a semi-detached house average 900 euros with a heat pump and " +
        "1,300 euros with a gas boiler.",
    },
    {
      key: "cold",
      title: COLD,
      content:
        "Cold-climate heat pump models continue to operate at outdoor temperatures as low as -25 °C. At -15 °C their " +
        "coefficient of performance stays above 2, according to field trials in Scandinavia.",
    },
    {
      key: "bread",
      title: "Sourdough baking notes",
      content:
        "Feed the starter with flour and water every day. Bake the loaf in a covered pot for forty minutes.",
    },
    {
      key: "castles",
      title: "Medieval castle architecture",
      content: "Curtain walls, keeps and moats defended medieval castles against siege engines.",
    },
    {
      key: "foreign",
      title: "Heat pump efficiency field study",
      ownerId: "someone-else",
      content: "A heat pump field study measured a seasonal coefficient of performance of 2.9.",
    },
  ],
  directives: [
    {
      topic:
        "Seasonal efficiency of air-source heat pumps in ordinary houses: the seasonal coefficient of performance reached in practice and how the flow temperature changes it.",
      query: "heat pump seasonal coefficient of performance",
      read: EFFICIENCY,
      evidence: "seasonal coefficient of performance (SCOP) of 3.2",
      findings: (n) =>
        `An air-source heat pump delivers a seasonal coefficient of performance (SCOP) of 3.2 in a typical house [${n}]. ` +
        `Above a flow temperature of 55 degrees the coefficient of performance drops below 2.5 [${n}].`,
    },
    {
      topic:
        "Annual running costs of a heat pump compared with a gas boiler for a typical semi-detached house at current electricity and gas prices.",
      query: "heat pump running costs gas boiler",
      read: COSTS,
      evidence: "about 30% less per year",
      findings: (n) =>
        `Running a heat pump costs about 30% less per year than a gas boiler at 25 cents per kilowatt-hour [${n}]. ` +
        `Annual running costs average 900 euros against 1,300 euros for a gas boiler [${n}].`,
    },
  ],
  followUp: {
    topic:
      "Performance of cold-climate heat pump models at outdoor temperatures below -15 °C, from field trials in Nordic countries.",
    query: "cold-climate heat pump outdoor temperatures",
    read: COLD,
    evidence: "as low as -25 °C",
    findings: (n) =>
      `Cold-climate models operate down to -25 °C and keep a coefficient of performance above 2 at -15 °C [${n}].`,
  },
  report: heatPumpReport,
  knowledge: heatPumpKnowledge,
};

/**
 * The scenario with findings of a realistic length (a page of measurement notes per directive), so
 * cutting them to a budget truncates one directive's findings instead of dropping it whole.
 */
function withLongFindings(s: Scenario): Scenario {
  const notes = (n: number) =>
    Array.from(
      { length: 12 },
      (_, i) =>
        `Measurement note ${i + 1}: the document reports the figures above for a typical house, measured over a full heating season [${n}].`,
    ).join(" ");
  const long = (d: ScenarioDirective): ScenarioDirective => ({
    ...d,
    findings: (n) => `${d.findings(n)}\n\n${notes(n)}`,
  });
  return {
    ...s,
    directives: s.directives.map(long),
    followUp: s.followUp && long(s.followUp),
  };
}

async function storedRows(h: DatabaseHandle, runId: string) {
  const [report] = await h.db.select().from(reports).where(eq(reports.runId, runId));
  const sourceRows = await h.db.select().from(sources).where(eq(sources.runId, runId));
  const citationRows = await h.db.select().from(citations).where(eq(citations.runId, runId));
  const knowledge = await h.db.select().from(knowledgeItems).where(eq(knowledgeItems.runId, runId));
  const links = await h.db
    .select({ directiveId: directiveSources.directiveId, sourceId: directiveSources.sourceId })
    .from(directiveSources)
    .innerJoin(directives, eq(directives.id, directiveSources.directiveId))
    .where(eq(directives.runId, runId));
  return { report, sourceRows, citationRows, knowledge, links };
}

type SourceRow = typeof sources.$inferSelect;

/**
 * Every [N] in the body resolves through the `## Sources` section (its heading in the report's language) to a source row of this run with
 * a non-empty text snapshot; the section lists exactly the cited sources, numbered in reading order.
 * Returns the section's entries by number.
 */
function expectCitationsResolve(
  markdown: string,
  rows: SourceRow[],
  heading = "Sources",
): Map<number, SourceRow> {
  const parts = markdown.split(new RegExp(`^## ${heading}[ \\t]*$`, "m"));
  expect(parts).toHaveLength(2);
  const [body, section] = parts;
  const entries = [...section.matchAll(/^\[(\d+)\] \[(.+)\]\((\S+)\)$/gm)];
  expect(entries.length).toBeGreaterThan(0);
  const byNumber = new Map<number, SourceRow>();
  for (const [, n, title, url] of entries) {
    const row = rows.find((r) => r.url === url);
    expect(row, `Sources entry [${n}] ${url} is a stored source of this run`).toBeDefined();
    expect(row?.title).toBe(title);
    expect(row?.content?.trim().length ?? 0).toBeGreaterThan(0);
    byNumber.set(Number(n), row as SourceRow);
  }
  expect([...byNumber.keys()]).toEqual(entries.map((_, i) => i + 1));

  const cited = [...body.matchAll(/\[(\d+)\](?!\()/g)].map((m) => Number(m[1]));
  expect(cited.length).toBeGreaterThan(0);
  for (const n of cited) expect(byNumber.has(n), `[${n}] resolves to a Sources entry`).toBe(true);
  // Cited sources only, numbered in the order the reader meets them.
  const firstSeen = [...new Set(cited)];
  expect(firstSeen).toEqual([...byNumber.keys()]);
  return byNumber;
}

function expectCleanRun(r: ScenarioRun) {
  expect(r.problems).toEqual([]);
  expect(r.eventsOf("directive.failed")).toEqual([]);
  expect(r.calls.filter((c) => c.kind === "unknown" || c.kind === "revision")).toEqual([]);
  expect(r.fetches).toEqual([]);
}

describe("a full research run on PGlite with the library search and mock models", () => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await openEngineDb();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("runs brief → supervision → researchers → report → knowledge to completed with every citation resolvable", async () => {
    const r = await runScenario(h, HEAT_PUMPS);
    expect(r.outcome).toEqual({ status: "completed", partial: false });
    expectCleanRun(r);
    const row = await getRun(h.db, r.run.id);
    expect(row?.status).toBe("completed");
    expect(row?.phase).toBe("done");
    expect(row?.error).toBeNull();
    expect(row?.finishedAt).toBeInstanceOf(Date);

    // Phases in order, each started and completed once.
    expect(r.eventsOf("phase.completed").map((e) => e.phase)).toEqual([
      "brief",
      "supervision",
      "synthesis",
      "knowledge",
    ]);

    // Supervision: round 0 planned two directives (critique passed, no revision), one coverage round
    // added the follow-up, and the round limit ended supervision.
    expect(r.eventsOf("supervision.first_round_decomposition")).toEqual([
      {
        type: "supervision.first_round_decomposition",
        initialCount: 2,
        finalCount: 2,
        revised: false,
        complexity: "typical",
        added: 0,
        removed: 0,
        merged: 0,
      },
    ]);
    expect(r.eventsOf("supervision.assessment")).toMatchObject([
      { round: 1, method: "llm", shouldContinue: true },
    ]);
    const rounds = await r.store.listRounds();
    expect(rounds.map((x) => [x.round, x.decision])).toEqual([
      [0, "continue"],
      [1, "stop"],
    ]);
    expect(rounds[1].reason).toMatch(/^max_rounds:/);
    const directiveRows = await r.store.listDirectives();
    expect(directiveRows.map((d) => [d.round, d.status])).toEqual([
      [0, "done"],
      [0, "done"],
      [1, "done"],
    ]);
    // The supervisor's coverage analysis saw the researchers' compressed findings (its memory).
    const think = r.callsOf("think");
    expect(think).toHaveLength(1);
    expect(think[0].text).toContain("(SCOP) of 3.2");
    expect(think[0].text).toContain("about 30% less per year");

    // Researchers: each searched the library, reflected, read a document from its results, reflected, completed.
    expect([...r.searches].sort()).toEqual(
      [...HEAT_PUMPS.directives.map((d) => d.query), HEAT_PUMPS.followUp?.query].sort(),
    );
    expect(r.eventsOf("researcher.complete").map((e) => [e.reason, e.toolCalls])).toEqual([
      ["complete", 2],
      ["complete", 2],
      ["complete", 2],
    ]);
    expect(r.eventsOf("researcher.think")).toHaveLength(6);
    expect(r.eventsOf("researcher.reflection_injected")).toEqual([]);
    const fetchEvents = r.eventsOf("researcher.fetch");
    expect(fetchEvents.map((e) => e.url).sort()).toEqual(
      [r.docs.efficiency.url, r.docs.costs.url, r.docs.cold.url].sort(),
    );
    expect(fetchEvents.every((e) => e.ok && e.fromStore)).toBe(true);
    expect(r.docs.efficiency.url).toMatch(/^library:\/\//);
    expect(r.docs.costs.url).toBe(COSTS_URL);
    // Compression condensed every history (no raw-notes fallback).
    expect(r.eventsOf("compression.completed").map((e) => e.fallback)).toEqual([false, false, false]);

    const { report, sourceRows, citationRows, knowledge, links } = await storedRows(h, r.run.id);

    // Sources: exactly the owner's three heat-pump documents — not the unrelated ones, not another
    // owner's — each stored once with its text, and shared between the researchers that found it.
    expect(sourceRows.map((s) => s.url).sort()).toEqual(
      [r.docs.efficiency.url, r.docs.costs.url, r.docs.cold.url].sort(),
    );
    expect(new Set(sourceRows.map((s) => s.normalizedUrl)).size).toBe(sourceRows.length);
    expect(new Set(sourceRows.map((s) => normalizeUrl(s.url))).size).toBe(sourceRows.length);
    for (const s of sourceRows) {
      expect(s.provider).toBe("library");
      expect(s.content?.length ?? 0).toBeGreaterThan(50);
    }
    const directivesPerSource = new Map<string, number>();
    for (const l of links)
      directivesPerSource.set(l.sourceId, (directivesPerSource.get(l.sourceId) ?? 0) + 1);
    expect(Math.max(...directivesPerSource.values())).toBeGreaterThan(1);

    // The synthesis prompt carried every directive's findings, renumbered to the run-wide list.
    const synthesis = r.callsOf("synthesis");
    expect(synthesis).toHaveLength(1);
    const runWide = (id: string) => {
      const m = synthesis[0].text.match(
        new RegExp(`^\\[(\\d+)\\] .* — ${id.replace(/[/.]/g, "\\$&")}$`, "m"),
      );
      return Number(m?.[1]);
    };
    expect(synthesis[0].text).toContain(
      `(SCOP) of 3.2 in a typical house [${runWide(r.docs.efficiency.url)}]`,
    );
    expect(synthesis[0].text).toContain(`gas boiler [${runWide(r.docs.costs.url)}]`);
    expect(synthesis[0].text).toContain(`above 2 at -15 °C [${runWide(r.docs.cold.url)}]`);
    expect(synthesis[0].text).toContain(HEAT_PUMPS.question);
    // The report streamed token by token: the deltas are exactly what the model wrote.
    expect(
      r
        .eventsOf("report.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe(synthesis[0].answer);

    // The stored report: every [N] resolves to a stored source with text, renumbered in reading order.
    expect(report).toBeDefined();
    expect(report.partial).toBe(false);
    expect((await r.store.getReport())?.markdown).toBe(report.markdown);
    const byNumber = expectCitationsResolve(report.markdown, sourceRows);
    expect([...byNumber.values()].map((s) => s.title)).toEqual([EFFICIENCY, COSTS, COLD]);
    expect(report.markdown).toContain(`[${EFFICIENCY}](${r.docs.efficiency.url}) [1] reports`);
    // The unknown number, the made-up bibliography and the link to a page never stored are gone.
    expect(report.markdown).not.toContain("[99]");
    expect(report.markdown).toContain("coefficient of performance of 5.");
    expect(report.markdown).not.toMatch(/made-up|imaginary|## References/i);
    expect(report.markdown).not.toContain("heating-weekly.example.com");
    expect(report.markdown).toContain("Trade magazines such as Heating Weekly make similar points.");
    expect(report.markdown.match(/^## Sources/gm)).toHaveLength(1);
    expect(r.eventsOf("report.citations")).toEqual([
      { type: "report.citations", kept: 10, removedUnknown: 1, flattenedLinks: 1 },
    ]);

    // Citations with their support verdicts; the report's stats record the same counts.
    expect(citationRows.length).toBeGreaterThan(0);
    const ids = new Set(sourceRows.map((s) => s.id));
    for (const c of citationRows) {
      expect(ids.has(c.sourceId)).toBe(true);
      expect(byNumber.get(c.number)?.id).toBe(c.sourceId);
      expect(["supported", "unsupported"]).toContain(c.support);
    }
    const verdictOf = (fragment: string, number: number) =>
      citationRows.find((c) => c.sentence.includes(fragment) && c.number === number)?.support;
    expect(verdictOf("yields 3.2 kilowatt-hours of heat", 1)).toBe("supported");
    expect(verdictOf("cut heating bills by 90%", 2)).toBe("unsupported");
    expect(verdictOf("above 2 at -15 °C", 3)).toBe("supported");
    expect(verdictOf("above 2 at -15 °C", 1)).toBe("unsupported");
    const counts = { supported: 0, partially_supported: 0, unsupported: 0, unchecked: 0 };
    for (const c of citationRows) counts[c.support]++;
    expect(counts.supported).toBeGreaterThan(0);
    expect(counts.unsupported).toBeGreaterThan(0);
    expect(report.citationStats).toMatchObject({
      ...counts,
      kept: 10,
      removedUnknown: 1,
      flattenedLinks: 1,
      strippedBibliography: true,
      citedSources: 3,
    });
    expect(r.eventsOf("report.support_checked")).toEqual([
      { type: "report.support_checked", ...counts, marked: counts.unsupported, removed: 0 },
    ]);
    expect(r.callsOf("citation_check")).toHaveLength(1);

    // Knowledge: stored provisional for the owner, source numbers mapped to this run's sources.
    const bySource = (title: string) => sourceRows.find((s) => s.title === title)?.id;
    expect(knowledge).toHaveLength(4);
    for (const k of knowledge) {
      expect(k.status).toBe("provisional");
      expect(k.origin).toBe("extracted");
      expect(k.ownerId).toBe(r.ownerId);
      for (const id of k.sourceIds) expect(ids.has(id)).toBe(true);
    }
    const item = (category: string, fragment: string) =>
      knowledge.find((k) => k.category === category && k.content.includes(fragment));
    expect(item("finding", "3.2")?.sourceIds).toEqual([bySource(EFFICIENCY)]);
    expect(item("finding", "-25 °C")?.sourceIds).toEqual([bySource(COLD)]);
    expect(item("lesson", "library")?.sourceIds).toEqual([]);
    // Number 42 is not in the report's Sources: dropped, the known one kept.
    expect(item("domain", "SCOP")?.sourceIds).toEqual([bySource(EFFICIENCY)]);
    expect(r.eventsOf("knowledge.extracted")).toEqual([{ type: "knowledge.extracted", count: 4 }]);

    // The event stream: report events, no token-limit retries, run.completed last.
    const types = r.events.map((e) => e.type);
    expect(types[0]).toBe("run.started");
    expect(types).toContain("report.completed");
    expect(types.indexOf("report.support_checked")).toBeLessThan(types.indexOf("report.completed"));
    expect(r.eventsOf("token_limit.retry")).toEqual([]);
    expect(r.eventsOf("report.completed")).toMatchObject([
      { type: "report.completed", chars: report.markdown.length, citations: 3, partial: false },
    ]);
    expect(r.eventsOf("report.completed")[0]).toMatchObject({ markdown: report.markdown });
    expect(r.events.at(-1)).toEqual({ type: "run.completed", sources: 3, citations: 3, partial: false });
  });

  it("recovers from two context-length errors of the synthesis model and completes", async () => {
    const r = await runScenario(h, { ...withLongFindings(HEAT_PUMPS), synthesisFailures: 2 });
    expect(r.outcome).toEqual({ status: "completed", partial: false });
    expectCleanRun(r);
    expect((await getRun(h.db, r.run.id))?.status).toBe("completed");

    const attempts = r.callsOf("synthesis");
    expect(attempts.map((c) => Boolean(c.failed))).toEqual([true, true, false]);
    // Only the findings shrink: the system prompt is the same every time, the question and the
    // language rule stay, and each retry sends less.
    expect(new Set(attempts.map((c) => c.system)).size).toBe(1);
    for (const c of attempts) {
      expect(c.text).toContain(HEAT_PUMPS.question);
      expect(c.text).toContain(LANGUAGE_RULE);
    }
    expect(attempts[1].text.length).toBeLessThan(attempts[0].text.length);
    expect(attempts[2].text.length).toBeLessThan(attempts[1].text.length);
    expect(attempts[0].text).not.toContain("cut to fit the model's context window");
    expect(attempts[2].text).toContain("cut to fit the model's context window");

    const retries = r.eventsOf("token_limit.retry");
    expect(retries.map((e) => [e.phase, e.attempt])).toEqual([
      ["synthesis", 1],
      ["synthesis", 2],
    ]);
    expect(retries[0].removedChars).toBeGreaterThan(0);
    expect(retries[1].removedChars).toBeGreaterThan(retries[0].removedChars);
    expect(retries[1].budgetChars).toBeLessThan(retries[0].budgetChars);

    const { report, sourceRows, citationRows } = await storedRows(h, r.run.id);
    expect(report.partial).toBe(false);
    expect(report.markdown).not.toContain("Partial report");
    expectCitationsResolve(report.markdown, sourceRows);
    expect(citationRows.length).toBeGreaterThan(0);
    // Only the successful attempt streamed.
    expect(
      r
        .eventsOf("report.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe(attempts[2].answer);
    const types = r.events.map((e) => e.type);
    expect(types).toContain("report.completed");
    expect(types).toContain("report.support_checked");
    expect(r.events.at(-1)).toMatchObject({ type: "run.completed", partial: false });
  });

  it("writes a German question's report from a German library with the language rule in the prompt", async () => {
    const question = "Lohnt sich eine Wärmepumpe im Altbau?";
    const ALTBAU = "Wärmepumpen im Altbau";
    const KOSTEN = "Kosten und Förderung von Wärmepumpen";
    const FINDING =
      "Im Altbau arbeitet eine Wärmepumpe effizient, solange die Vorlauftemperatur unter 55 Grad bleibt.";
    const german: Scenario = {
      question,
      brief:
        "Ich möchte wissen, ob sich eine Wärmepumpe in einem älteren, teilweise sanierten Haus lohnt: wie effizient sie dort arbeitet und was sie kostet, belegt mit Messwerten und offiziellen Angaben.",
      docs: [
        {
          key: "altbau",
          title: ALTBAU,
          content:
            "Eine Wärmepumpe arbeitet auch im Altbau effizient, wenn die Vorlauftemperatur unter 55 Grad bleibt. " +
            "Größere Heizkörper senken die nötige Vorlauftemperatur. Die Jahresarbeitszahl liegt in sanierten " +
            "Altbauten oft bei 3,1.",
        },
        {
          key: "kosten",
          title: KOSTEN,
          content:
            "Eine Wärmepumpe im Altbau kostet mit Einbau zwischen 25.000 und 35.000 Euro. Die staatliche Förderung " +
            "übernimmt bis zu 70 Prozent der Kosten.",
        },
        {
          key: "bread",
          title: "Sourdough baking notes",
          content:
            "Feed the starter with flour and water every day. Bake the loaf in a covered pot for forty minutes.",
        },
      ],
      directives: [
        {
          topic:
            "Effizienz einer Wärmepumpe im teilsanierten Altbau: welche Vorlauftemperatur und welche Jahresarbeitszahl in der Praxis erreicht werden.",
          query: "Wärmepumpe Altbau Vorlauftemperatur",
          read: ALTBAU,
          evidence: "Vorlauftemperatur unter 55 Grad",
          findings: (n) =>
            `Eine Wärmepumpe arbeitet im Altbau effizient, wenn die Vorlauftemperatur unter 55 Grad bleibt [${n}]. ` +
            `Die Jahresarbeitszahl liegt in sanierten Altbauten oft bei 3,1 [${n}].`,
        },
      ],
      report: (list) => {
        const a = numbered(list, ALTBAU);
        const k = numbered(list, KOSTEN);
        return [
          `# ${question}`,
          "",
          "Im Altbau lohnt sich eine Wärmepumpe, wenn die Heizkörper mit niedriger Vorlauftemperatur auskommen.",
          "",
          "## Effizienz im Altbau",
          "",
          `Laut [${a.title}](${a.url}) [${a.number}] arbeitet eine Wärmepumpe auch im Altbau effizient, wenn die Vorlauftemperatur unter 55 Grad bleibt. ` +
            `Die Jahresarbeitszahl liegt in sanierten Altbauten oft bei 3,1 [${a.number}].`,
          "",
          "## Kosten",
          "",
          `Eine Wärmepumpe im Altbau kostet mit Einbau zwischen 25.000 und 35.000 Euro [${k.number}].`,
          "",
          "## Fazit",
          "",
          `Mit größeren Heizkörpern ist die Wärmepumpe auch im Altbau eine gute Wahl [${a.number}].`,
          "",
          "## Quellen",
          "",
          "[1] Erfundene Quelle — https://erfunden.example.de/waermepumpe",
        ].join("\n");
      },
      knowledge: (list) => ({
        items: [
          {
            category: "finding",
            content: FINDING,
            sources: [numbered(list, ALTBAU).number],
            confidence: 0.7,
            needs_review: false,
          },
        ],
      }),
    };
    const r = await runScenario(h, german);
    expect(r.outcome).toEqual({ status: "completed", partial: false });
    expectCleanRun(r);

    // The brief was asked for from the German question; the plan from the German brief.
    expect(r.callsOf("brief")[0].text).toContain(question);
    expect(r.callsOf("plan")[0].text).toContain(german.brief);
    // The supervisor judged coverage sufficient: no follow-up round was researched.
    expect((await r.store.listRounds()).at(-1)?.reason).toMatch(/^coverage_sufficient:/);

    // The synthesis prompt states the language rule twice (system prompt and message) and carries
    // the German question and the German findings.
    const [synthesis] = r.callsOf("synthesis");
    expect(synthesis.system).toContain(LANGUAGE_RULE);
    expect(synthesis.text).toContain(LANGUAGE_RULE);
    expect(`${synthesis.system}\n${synthesis.text}`.split(LANGUAGE_RULE)).toHaveLength(3);
    expect(synthesis.text).toContain(`Research question:\n${question}`);
    expect(synthesis.text).toContain("wenn die Vorlauftemperatur unter 55 Grad bleibt");

    const { report, sourceRows, knowledge } = await storedRows(h, r.run.id);
    expect(sourceRows.map((s) => s.title).sort()).toEqual([ALTBAU, KOSTEN].sort());
    // The German question's report lists its sources under the German heading the code writes, once:
    // the model's own "## Quellen" list (with an invented source) is gone.
    const byNumber = expectCitationsResolve(report.markdown, sourceRows, "Quellen");
    expect([...byNumber.values()].map((s) => s.title)).toEqual([ALTBAU, KOSTEN]);
    expect(report.markdown).toContain("## Effizienz im Altbau");
    expect(report.markdown).not.toMatch(/erfunden/);
    expect(knowledge.map((k) => [k.status, k.content])).toEqual([["provisional", FINDING]]);
  });
});
