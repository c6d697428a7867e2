import { describe, expect, it } from "vitest";
import { markerVerdicts } from "../../components/report/citation-data.ts";
import { getReport, listCitations } from "../../db/queries/research.ts";
import { getRun } from "../../db/queries/runs.ts";
import { listSources } from "../../db/queries/sources.ts";
import { openMigratedPglite } from "../../test/support/db-template.ts";
import { generateReport } from "./report-seed.ts";
import { seedFinishedRun } from "./seed-run.ts";

describe("generateReport", () => {
  it("reaches the word count and cites every source, numbered in reading order", () => {
    const report = generateReport({ words: 20_000, sources: 150 });
    expect(report.words).toBeGreaterThanOrEqual(20_000);
    expect(report.words).toBeLessThan(20_600);
    const numbers = report.citations.map((c) => c.number);
    expect(new Set(numbers).size).toBe(150);
    const firstSeen = [...new Set(numbers)];
    expect(firstSeen).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    // A citation every sentence or two.
    expect(report.citations.length).toBeGreaterThan(500);
    expect(report.markdown).toContain("\n## Sources\n\n[1] [");
    expect(report.markdown).toContain(`[150] [${report.sources[149].title}](${report.sources[149].url})`);
  });

  it("gives each citation a passage of its own source's text, and is the same for the same seed", () => {
    const report = generateReport({ words: 1_000, sources: 10, seed: 7 });
    expect(report.words).toBeGreaterThanOrEqual(1_000);
    expect(new Set(report.citations.map((c) => c.number)).size).toBe(10);
    for (const c of report.citations) {
      expect(report.sources[c.number - 1].content).toContain(c.passage);
      expect(c.passage.length).toBe(300);
    }
    expect(generateReport({ words: 1_000, sources: 10, seed: 7 }).markdown).toBe(report.markdown);
  });
});

describe("seedFinishedRun", () => {
  it("stores a completed run whose every marker gets its own claim's verdict", async () => {
    const h = await openMigratedPglite();
    try {
      const report = generateReport({ words: 1_000, sources: 10 });
      const id = await seedFinishedRun(h.db, "owner-1", report);
      const run = await getRun(h.db, id);
      expect(run).toMatchObject({ ownerId: "owner-1", status: "completed", phase: "done", lastEventSeq: 2 });
      expect((await getReport(h.db, id))?.markdown).toBe(report.markdown);
      const rows = await listCitations(h.db, id);
      expect(rows).toHaveLength(report.citations.length);
      const stored = await listSources(h.db, id);
      expect(stored).toHaveLength(10);
      // The page reads verdicts by (number, sentence): the stored sentences are the body's own.
      const cards = rows.map((c) => ({
        number: c.number,
        sourceId: c.sourceId,
        title: "",
        domain: "",
        claims: [{ sentence: c.sentence, support: c.support, reason: c.reason }],
      }));
      const verdicts = markerVerdicts(report.markdown, cards);
      expect([...verdicts.values()].flat().length).toBeGreaterThanOrEqual(report.citations.length);
    } finally {
      await h.close();
    }
  });
});
