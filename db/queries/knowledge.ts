import { and, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type KnowledgeEdit, type KnowledgeItem, knowledgeItems, runs, sources } from "../schema.ts";

export type KnowledgeStatus = KnowledgeItem["status"];

export async function listKnowledge(
  db: Db,
  ownerId: string,
  filter: { status?: KnowledgeStatus } = {},
): Promise<KnowledgeItem[]> {
  const visible = visibleKnowledge(ownerId);
  const where = filter.status ? and(visible, eq(knowledgeItems.status, filter.status)) : visible;
  return db.select().from(knowledgeItems).where(where).orderBy(desc(knowledgeItems.createdAt)).limit(500);
}

/** An owner sees their own items and those an admin shared with everyone (read-only to others). */
export function visibleKnowledge(ownerId: string | SQL): SQL {
  return or(eq(knowledgeItems.ownerId, ownerId), eq(knowledgeItems.shared, true)) as SQL;
}

/** Shares or unshares one of the owner's items with every account (admins only, checked by the caller). */
export async function setKnowledgeShared(
  db: Db,
  ownerId: string,
  id: string,
  shared: boolean,
): Promise<KnowledgeItem | undefined> {
  const [row] = await db
    .update(knowledgeItems)
    .set({ shared, updatedAt: sql`now()` })
    .where(and(eq(knowledgeItems.id, id), eq(knowledgeItems.ownerId, ownerId)))
    .returning();
  return row;
}

export async function addKnowledgeItem(
  db: Db,
  ownerId: string,
  input: Pick<KnowledgeItem, "category" | "content"> & { confidence?: number },
): Promise<KnowledgeItem> {
  // A person's own item is already reviewed: it is established from the start.
  const [row] = await db
    .insert(knowledgeItems)
    .values({
      ownerId,
      category: input.category,
      content: input.content,
      confidence: input.confidence ?? 1,
      needsReview: false,
      status: "established",
      origin: "user",
      reviewedAt: new Date(),
    })
    .returning();
  return row;
}

/**
 * Review: approve (established), reject (deprecated) or edit; only the owner's items. An edit that
 * changes the content appends `{by, at, previousContent}` to the item's history in the same
 * statement (the old content is the row's value before the update), so no edit is lost to a race.
 */
export async function reviewKnowledgeItem(
  db: Db,
  ownerId: string,
  id: string,
  patch: { status?: KnowledgeStatus; content?: string; category?: KnowledgeItem["category"] },
  editedBy: string = ownerId,
): Promise<KnowledgeItem | undefined> {
  const [row] = await db
    .update(knowledgeItems)
    .set({
      ...patch,
      ...(patch.content !== undefined ? { history: historyAppend(patch.content, editedBy) } : {}),
      // Undo puts an item back in the review queue: provisional again means unreviewed again.
      needsReview: patch.status === "provisional",
      reviewedAt: patch.status === "provisional" ? null : new Date(),
      updatedAt: sql`now()`,
    })
    .where(and(eq(knowledgeItems.id, id), eq(knowledgeItems.ownerId, ownerId)))
    .returning();
  return row;
}

function historyAppend(content: string, editedBy: string): SQL<KnowledgeEdit[]> {
  const entry = sql`jsonb_build_object('by', ${editedBy}::text, 'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'previousContent', ${knowledgeItems.content})`;
  return sql<KnowledgeEdit[]>`case when ${knowledgeItems.content} is distinct from ${content}::text
    then ${knowledgeItems.history} || jsonb_build_array(${entry})
    else ${knowledgeItems.history} end`;
}

/** A source a knowledge item rests on, as the review page links it. */
export interface KnowledgeSourceLink {
  id: string;
  runId: string;
  url: string;
  title: string;
  domain: string;
}

/** The sources among `ids` that belong to the owner's own runs (another person's run stays hidden). */
export async function knowledgeSourcesForOwner(
  db: Db,
  ownerId: string,
  ids: readonly string[],
): Promise<KnowledgeSourceLink[]> {
  if (!ids.length) return [];
  return db
    .select({
      id: sources.id,
      runId: sources.runId,
      url: sources.url,
      title: sources.title,
      domain: sources.domain,
    })
    .from(sources)
    .innerJoin(runs, eq(runs.id, sources.runId))
    .where(and(eq(runs.ownerId, ownerId), inArray(sources.id, [...ids])));
}
