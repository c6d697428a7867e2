/**
 * An imported run (lib/server/exports/bundle-import.ts) written in one transaction: the run row,
 * its sources, directives, report, citations and events. Either all of it is stored or nothing.
 */
import type { Db } from "../client.ts";
import {
  citations,
  directives,
  type NewDirective,
  type NewRun,
  type NewSource,
  reports,
  runEvents,
  runs,
  sources,
} from "../schema.ts";

export interface ImportedRunRows {
  run: NewRun & { id: string };
  sources: NewSource[];
  directives: NewDirective[];
  report: { markdown: string; partial: boolean; citationStats: Record<string, unknown> } | null;
  citations: (typeof citations.$inferInsert)[];
  events: (typeof runEvents.$inferInsert)[];
}

/** Rows are inserted a slice at a time: a statement's parameters are limited (65535). */
const SLICE = 500;

async function insertAll<T>(rows: T[], insert: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += SLICE) await insert(rows.slice(i, i + SLICE));
}

export async function insertImportedRun(db: Db, rows: ImportedRunRows): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(runs).values(rows.run);
    await insertAll(rows.sources, (s) => tx.insert(sources).values(s));
    await insertAll(rows.directives, (d) => tx.insert(directives).values(d));
    if (rows.report) await tx.insert(reports).values({ runId: rows.run.id, ...rows.report });
    await insertAll(rows.citations, (c) => tx.insert(citations).values(c));
    await insertAll(rows.events, (e) => tx.insert(runEvents).values(e));
  });
}
