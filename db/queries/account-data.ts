/**
 * Everything one person owns, read for their export (a piece at a time: a run, a few sources, a
 * page of events) and deleted with their account. Deleting a run takes its events, directives,
 * sources, report, citations and shares with it (foreign keys); deleting the user row takes
 * sessions, sign-in accounts, tokens, webhook secret, limits and the invitations they created.
 */
import { and, asc, eq, getTableColumns, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
  type Directive,
  directives,
  type KnowledgeItem,
  knowledgeItems,
  type LibraryDocument,
  libraryDocuments,
  type Report,
  type Run,
  type RunEvent,
  reports,
  runEvents,
  runs,
  type Source,
  sessions,
  sources,
  users,
  webhookDeliveries,
} from "../schema.ts";

/** The owner's runs, oldest first: id and question only (each run is read on its own, in turn). */
export async function listRunRefsOfOwner(
  db: Db,
  ownerId: string,
): Promise<{ id: string; question: string }[]> {
  return db
    .select({ id: runs.id, question: runs.question })
    .from(runs)
    .where(eq(runs.ownerId, ownerId))
    .orderBy(asc(runs.createdAt), asc(runs.id));
}

// The engine's resumable state and the queue's job id are internals, not the person's data.
const { checkpoint: _checkpoint, jobId: _jobId, ...exportedRunColumns } = getTableColumns(runs);
export type ExportedRun = Omit<Run, "checkpoint" | "jobId">;

export async function getRunForExport(db: Db, runId: string): Promise<ExportedRun | undefined> {
  const [row] = await db.select(exportedRunColumns).from(runs).where(eq(runs.id, runId));
  return row;
}

export async function getRunReport(db: Db, runId: string): Promise<Report | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.runId, runId));
  return row;
}

export async function listRunDirectives(db: Db, runId: string): Promise<Directive[]> {
  return db.select().from(directives).where(eq(directives.runId, runId)).orderBy(asc(directives.ordinal));
}

/** A row's id and the size of its text, in the order the export writes the rows. */
export interface SizedRow {
  id: string;
  bytes: number;
}

/** The run's sources, in order, with the size of their stored text (read without the text). */
export async function listSourceSizes(db: Db, runId: string): Promise<SizedRow[]> {
  return db
    .select({ id: sources.id, bytes: sql<number>`coalesce(octet_length(${sources.content}), 0)::int` })
    .from(sources)
    .where(eq(sources.runId, runId))
    .orderBy(asc(sources.createdAt), asc(sources.id));
}

export async function getSourcesByIds(db: Db, ids: string[]): Promise<Source[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(sources)
    .where(inArray(sources.id, ids))
    .orderBy(asc(sources.createdAt), asc(sources.id));
}

/** Up to `limit` of the run's events after `afterSeq`, in order. */
export async function listRunEventsAfter(
  db: Db,
  runId: string,
  afterSeq: number,
  limit: number,
): Promise<RunEvent[]> {
  return db
    .select()
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), gt(runEvents.seq, afterSeq)))
    .orderBy(asc(runEvents.seq))
    .limit(limit);
}

/** The owner's knowledge items, in order, with the size of their text. */
export async function listKnowledgeSizes(db: Db, ownerId: string): Promise<SizedRow[]> {
  return db
    .select({ id: knowledgeItems.id, bytes: sql<number>`octet_length(${knowledgeItems.content})::int` })
    .from(knowledgeItems)
    .where(eq(knowledgeItems.ownerId, ownerId))
    .orderBy(asc(knowledgeItems.createdAt), asc(knowledgeItems.id));
}

export async function getKnowledgeByIds(db: Db, ids: string[]): Promise<KnowledgeItem[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(knowledgeItems)
    .where(inArray(knowledgeItems.id, ids))
    .orderBy(asc(knowledgeItems.createdAt), asc(knowledgeItems.id));
}

// The search column is derived from the text; the rest is the document as stored.
const { search: _search, ...exportedDocumentColumns } = getTableColumns(libraryDocuments);
export type ExportedDocument = Omit<LibraryDocument, "search">;

/** The owner's library documents, in order, with the size of their text. */
export async function listDocumentSizes(db: Db, ownerId: string): Promise<SizedRow[]> {
  return db
    .select({ id: libraryDocuments.id, bytes: sql<number>`octet_length(${libraryDocuments.content})::int` })
    .from(libraryDocuments)
    .where(eq(libraryDocuments.ownerId, ownerId))
    .orderBy(asc(libraryDocuments.createdAt), asc(libraryDocuments.id));
}

export async function getDocumentsByIds(db: Db, ids: string[]): Promise<ExportedDocument[]> {
  if (!ids.length) return [];
  return db
    .select(exportedDocumentColumns)
    .from(libraryDocuments)
    .where(inArray(libraryDocuments.id, ids))
    .orderBy(asc(libraryDocuments.createdAt), asc(libraryDocuments.id));
}

/**
 * Deletes the person and everything they own. Call inside a transaction: rows owned by id only
 * (runs, knowledge, documents, webhook deliveries) go first, then the user row and its cascades.
 */
export async function deleteAccountRows(tx: Db, userId: string): Promise<void> {
  const owned = await tx.select({ id: runs.id }).from(runs).where(eq(runs.ownerId, userId));
  const runIds = owned.map((r) => r.id);
  if (runIds.length) await tx.delete(webhookDeliveries).where(inArray(webhookDeliveries.runId, runIds));
  await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.ownerId, userId));
  await tx.delete(runs).where(eq(runs.ownerId, userId));
  await tx.delete(knowledgeItems).where(eq(knowledgeItems.ownerId, userId));
  await tx.delete(libraryDocuments).where(eq(libraryDocuments.ownerId, userId));
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  await tx.delete(users).where(eq(users.id, userId));
}
