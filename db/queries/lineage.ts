/**
 * Run lineage: seeding a run from an earlier one ("research deeper" children, and later versions of
 * a report), and reading a run's children. A seeded run starts with the earlier run's read sources
 * WITH their stored text (copied rows, so nothing is fetched again and citation checks find the
 * text), the links those pages admitted, and the earlier run's researched directives with their
 * findings, typed `inherited`: the supervisor plans around them and a repeated topic is refused as
 * a duplicate by the same check that refuses any repeat.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
  type Directive,
  directiveSources,
  directives,
  pageLinks,
  type Run,
  researcherResults,
  runs,
  sources,
} from "../schema.ts";

export interface SeedCounts {
  sources: number;
  directives: number;
}

/**
 * Copies `fromRunId`'s read sources, their admitted links, and its finished directives with their
 * findings into `toRunId` (a run just created, in the same transaction). Rows get new ids; times
 * are kept, so the copied rows sort as they did in the earlier run.
 */
export async function seedRunFrom(db: Db, fromRunId: string, toRunId: string): Promise<SeedCounts> {
  const sourceIds = await copyReadSources(db, fromRunId, toRunId);
  await copyPageLinks(db, fromRunId, toRunId, sourceIds);
  const directiveIds = await copyDoneDirectives(db, fromRunId, toRunId);
  await copyDirectiveLinks(db, directiveIds, sourceIds);
  await copyFindings(db, fromRunId, toRunId, directiveIds);
  return { sources: sourceIds.size, directives: directiveIds.size };
}

/** Only sources whose text was read: a search hit never read has nothing a citation could rest on. */
async function copyReadSources(db: Db, from: string, to: string): Promise<Map<string, string>> {
  const rows = await db
    .select()
    .from(sources)
    .where(and(eq(sources.runId, from), isNotNull(sources.content)))
    .orderBy(asc(sources.createdAt));
  const ids = new Map(rows.map((s) => [s.id, randomUUID()] as const));
  if (rows.length) {
    await db.insert(sources).values(rows.map((s) => ({ ...s, id: ids.get(s.id) as string, runId: to })));
  }
  return ids;
}

async function copyPageLinks(db: Db, from: string, to: string, sourceIds: Map<string, string>) {
  const rows = (await db.select().from(pageLinks).where(eq(pageLinks.runId, from))).filter((l) =>
    sourceIds.has(l.sourceId),
  );
  if (rows.length) {
    await db
      .insert(pageLinks)
      .values(rows.map((l) => ({ ...l, runId: to, sourceId: sourceIds.get(l.sourceId) as string })));
  }
}

/** The earlier run's researched directives, renumbered densely from 1 and typed `inherited`. */
async function copyDoneDirectives(db: Db, from: string, to: string): Promise<Map<string, string>> {
  const rows: Directive[] = await db
    .select()
    .from(directives)
    .where(and(eq(directives.runId, from), eq(directives.status, "done")))
    .orderBy(asc(directives.ordinal));
  const ids = new Map(rows.map((d) => [d.id, randomUUID()] as const));
  if (rows.length) {
    await db.insert(directives).values(
      rows.map((d, i) => ({
        ...d,
        id: ids.get(d.id) as string,
        runId: to,
        ordinal: i + 1,
        type: "inherited" as const,
        rationale: "Researched by the run this one researches deeper.",
      })),
    );
  }
  return ids;
}

async function copyDirectiveLinks(db: Db, directiveIds: Map<string, string>, sourceIds: Map<string, string>) {
  if (!directiveIds.size) return;
  const rows = (
    await db
      .select()
      .from(directiveSources)
      .where(inArray(directiveSources.directiveId, [...directiveIds.keys()]))
  ).filter((l) => sourceIds.has(l.sourceId));
  if (rows.length) {
    await db.insert(directiveSources).values(
      rows.map((l) => ({
        ...l,
        directiveId: directiveIds.get(l.directiveId) as string,
        sourceId: sourceIds.get(l.sourceId) as string,
      })),
    );
  }
}

/** Findings only: the researcher's transcript was compression's input and is not needed again. */
async function copyFindings(db: Db, from: string, to: string, directiveIds: Map<string, string>) {
  const rows = (await db.select().from(researcherResults).where(eq(researcherResults.runId, from))).filter(
    (r) => directiveIds.has(r.directiveId),
  );
  if (rows.length) {
    await db.insert(researcherResults).values(
      rows.map((r) => ({
        ...r,
        id: randomUUID(),
        runId: to,
        directiveId: directiveIds.get(r.directiveId) as string,
        messages: [],
      })),
    );
  }
}

export type RunLink = Pick<Run, "id" | "question" | "status" | "createdAt">;

/** The runs that research `parentId` deeper, oldest first (the caller has checked ownership). */
export async function listChildren(db: Db, parentId: string): Promise<RunLink[]> {
  return db
    .select({ id: runs.id, question: runs.question, status: runs.status, createdAt: runs.createdAt })
    .from(runs)
    .where(eq(runs.parentId, parentId))
    .orderBy(asc(runs.createdAt));
}

/** A run's parent as a link, when it has one (same owner: a child is only made from an owned run). */
export async function getRunLink(db: Db, id: string): Promise<RunLink | undefined> {
  const [row] = await db
    .select({ id: runs.id, question: runs.question, status: runs.status, createdAt: runs.createdAt })
    .from(runs)
    .where(eq(runs.id, id));
  return row;
}
