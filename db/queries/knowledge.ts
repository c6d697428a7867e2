import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type KnowledgeItem, knowledgeItems } from "../schema.ts";

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
export function visibleKnowledge(ownerId: string): SQL {
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

/** Review: approve (established), reject (deprecated) or edit; only the owner's items. */
export async function reviewKnowledgeItem(
  db: Db,
  ownerId: string,
  id: string,
  patch: { status?: KnowledgeStatus; content?: string; category?: KnowledgeItem["category"] },
): Promise<KnowledgeItem | undefined> {
  const [row] = await db
    .update(knowledgeItems)
    .set({ ...patch, needsReview: false, reviewedAt: new Date(), updatedAt: sql`now()` })
    .where(and(eq(knowledgeItems.id, id), eq(knowledgeItems.ownerId, ownerId)))
    .returning();
  return row;
}
