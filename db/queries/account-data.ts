/**
 * Everything one person owns, read for their export and deleted with their account. Deleting a run
 * takes its events, directives, sources, report, citations and shares with it (foreign keys);
 * deleting the user row takes sessions, sign-in accounts, tokens, webhook secret, limits and the
 * invitations they created.
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
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

export async function listAllRunsOfOwner(db: Db, ownerId: string): Promise<Run[]> {
  return db.select().from(runs).where(eq(runs.ownerId, ownerId)).orderBy(asc(runs.createdAt));
}

export interface RunRecords {
  report: Report | undefined;
  sources: Source[];
  events: RunEvent[];
  directives: (typeof directives.$inferSelect)[];
}

/** One run's records for the export (the caller has checked the run is the person's). */
export async function runRecords(db: Db, runId: string): Promise<RunRecords> {
  const [reportRows, sourceRows, eventRows, directiveRows] = await Promise.all([
    db.select().from(reports).where(eq(reports.runId, runId)),
    db.select().from(sources).where(eq(sources.runId, runId)).orderBy(asc(sources.createdAt)),
    db.select().from(runEvents).where(eq(runEvents.runId, runId)).orderBy(asc(runEvents.seq)),
    db.select().from(directives).where(eq(directives.runId, runId)).orderBy(asc(directives.ordinal)),
  ]);
  return { report: reportRows[0], sources: sourceRows, events: eventRows, directives: directiveRows };
}

export async function listOwnedKnowledge(db: Db, ownerId: string): Promise<KnowledgeItem[]> {
  return db
    .select()
    .from(knowledgeItems)
    .where(eq(knowledgeItems.ownerId, ownerId))
    .orderBy(asc(knowledgeItems.createdAt));
}

export async function listOwnedDocuments(db: Db, ownerId: string): Promise<LibraryDocument[]> {
  return db
    .select()
    .from(libraryDocuments)
    .where(eq(libraryDocuments.ownerId, ownerId))
    .orderBy(asc(libraryDocuments.createdAt));
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
