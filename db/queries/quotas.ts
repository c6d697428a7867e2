/**
 * What one person stores, in bytes (UTF-8, as PostgreSQL keeps it): their library documents' text,
 * and the page text their runs' sources keep. octet_length reads a stored value's size without
 * decompressing it.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { libraryDocuments, runs, sources } from "../schema.ts";

export async function libraryBytesOf(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string | null>`sum(octet_length(${libraryDocuments.content}))` })
    .from(libraryDocuments)
    .where(eq(libraryDocuments.ownerId, ownerId));
  return Number(row?.bytes ?? 0);
}

export async function sourceTextBytesOf(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string | null>`sum(octet_length(${sources.content}))` })
    .from(sources)
    .innerJoin(runs, eq(runs.id, sources.runId))
    .where(eq(runs.ownerId, ownerId));
  return Number(row?.bytes ?? 0);
}
