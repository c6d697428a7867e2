/**
 * Writes a generated finished run (bench/lib/report-seed.ts) into the database with the rows the
 * engine writes: the run (completed, phase done), its sources with their text, the report, the
 * citations with verdicts and passages, and its first and terminal events.
 */
import type { Db } from "../../db/client.ts";
import { appendEvent, writeRunEnd } from "../../db/queries/events.ts";
import { citations, reports, runs, sources } from "../../db/schema.ts";
import type { GeneratedReport } from "./report-seed.ts";

/** Inserts in slices: one statement with thousands of parameters is slow on PGlite. */
async function insertInSlices<T>(rows: T[], insert: (slice: T[]) => Promise<unknown>, size = 100) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Stores the run for `ownerId`; returns its id. */
export async function seedFinishedRun(db: Db, ownerId: string, report: GeneratedReport): Promise<string> {
  const finishedAt = new Date();
  const startedAt = new Date(finishedAt.getTime() - 8 * 60_000);
  const [run] = await db
    .insert(runs)
    .values({
      ownerId,
      question: report.question,
      settings: {},
      status: "queued",
      brief: `Research brief: ${report.question}`,
      startedAt,
      createdAt: startedAt,
    })
    .returning();
  await appendEvent(db, run.id, { type: "run.created", question: report.question, settings: {} });
  const sourceRows = await db
    .insert(sources)
    .values(
      report.sources.map((s) => ({
        runId: run.id,
        ...s,
        provider: "searxng",
        quality: "HIGH" as const,
        snippet: s.content.slice(0, 200),
        fetchedAt: startedAt,
      })),
    )
    .returning({ id: sources.id, url: sources.url });
  const idByUrl = new Map(sourceRows.map((s) => [s.url, s.id]));
  await insertInSlices(
    report.citations.map((c) => ({
      runId: run.id,
      number: c.number,
      sourceId: idByUrl.get(report.sources[c.sourceIndex].url) as string,
      sentence: c.sentence,
      support: c.support,
      reason: c.reason,
      passage: c.passage,
    })),
    (slice) => db.insert(citations).values(slice),
  );
  await db.insert(reports).values({
    runId: run.id,
    markdown: report.markdown,
    partial: false,
    citationStats: report.citationStats,
  });
  // The terminal event with the run's end (status completed, phase done), as the worker writes it.
  const completed = {
    type: "run.completed" as const,
    sources: report.sources.length,
    citations: report.sources.length,
    partial: false,
  };
  await db.transaction((tx) => writeRunEnd(tx as unknown as Db, run.id, completed));
  return run.id;
}
