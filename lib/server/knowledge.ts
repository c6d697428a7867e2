/** The owner's knowledge base: listing, adding and reviewing items. */
import {
  addKnowledgeItem,
  type KnowledgeStatus,
  listKnowledge,
  reviewKnowledgeItem,
  setKnowledgeShared,
} from "../../db/queries/knowledge.ts";
import { runQuestionsForOwner } from "../../db/queries/runs.ts";
import type { KnowledgeItem } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Runtime } from "../jobs/runtime.ts";

/** What a person sees of an item: whether it is theirs (and so theirs to review), never who else owns it. */
export type KnowledgeItemView = Omit<KnowledgeItem, "ownerId"> & { own: boolean };

function viewOf(item: KnowledgeItem, ownerId: string): KnowledgeItemView {
  const { ownerId: itemOwner, ...rest } = item;
  return { ...rest, own: itemOwner === ownerId };
}

export async function listKnowledgeItems(
  rt: Runtime,
  ownerId: string,
  filter: { status?: KnowledgeStatus } = {},
): Promise<KnowledgeItemView[]> {
  return (await listKnowledge(rt.handle.db, ownerId, filter)).map((i) => viewOf(i, ownerId));
}

/**
 * The items and, for the owner's items extracted from a run, that run's question (the review page's
 * labels). Shared items from someone else's run get no question: that run is not the viewer's to open.
 */
export async function knowledgeWithRunQuestions(
  rt: Runtime,
  ownerId: string,
): Promise<{ items: KnowledgeItemView[]; runQuestions: Record<string, string> }> {
  const items = await listKnowledgeItems(rt, ownerId);
  const runIds = [...new Set(items.flatMap((i) => (i.own && i.runId ? [i.runId] : [])))];
  return { items, runQuestions: await runQuestionsForOwner(rt.handle.db, ownerId, runIds) };
}

export async function addOwnKnowledgeItem(
  rt: Runtime,
  ownerId: string,
  input: Pick<KnowledgeItem, "category" | "content">,
): Promise<KnowledgeItemView> {
  return viewOf(await addKnowledgeItem(rt.handle.db, ownerId, input), ownerId);
}

/**
 * Approve, reject or edit one of the owner's items; a 404 for anyone else's. A content edit is
 * kept in the item's `history` (who, when, the text it replaced), returned with the item.
 */
export async function reviewOwnKnowledgeItem(
  rt: Runtime,
  ownerId: string,
  id: string,
  patch: Parameters<typeof reviewKnowledgeItem>[3],
): Promise<KnowledgeItemView> {
  const item = await reviewKnowledgeItem(rt.handle.db, ownerId, id, patch, ownerId);
  if (!item) throw new AppError("not_found", "No such knowledge item.");
  return viewOf(item, ownerId);
}

/** Admins only: share one of their own items with every account, or take it back. */
export async function shareOwnKnowledgeItem(
  rt: Runtime,
  ownerId: string,
  id: string,
  shared: boolean,
): Promise<KnowledgeItemView> {
  const item = await setKnowledgeShared(rt.handle.db, ownerId, id, shared);
  if (!item) throw new AppError("not_found", "No such knowledge item.");
  return viewOf(item, ownerId);
}
