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

export function listKnowledgeItems(
  rt: Runtime,
  ownerId: string,
  filter: { status?: KnowledgeStatus } = {},
): Promise<KnowledgeItem[]> {
  return listKnowledge(rt.handle.db, ownerId, filter);
}

/** The items and, for those extracted from a run, that run's question (the review page's labels). */
export async function knowledgeWithRunQuestions(
  rt: Runtime,
  ownerId: string,
): Promise<{ items: KnowledgeItem[]; runQuestions: Record<string, string> }> {
  const items = await listKnowledge(rt.handle.db, ownerId);
  const runIds = [...new Set(items.flatMap((i) => (i.runId ? [i.runId] : [])))];
  return { items, runQuestions: await runQuestionsForOwner(rt.handle.db, ownerId, runIds) };
}

export function addOwnKnowledgeItem(
  rt: Runtime,
  ownerId: string,
  input: Pick<KnowledgeItem, "category" | "content">,
): Promise<KnowledgeItem> {
  return addKnowledgeItem(rt.handle.db, ownerId, input);
}

/** Approve, reject or edit one of the owner's items; a 404 for anyone else's. */
export async function reviewOwnKnowledgeItem(
  rt: Runtime,
  ownerId: string,
  id: string,
  patch: Parameters<typeof reviewKnowledgeItem>[3],
): Promise<KnowledgeItem> {
  const item = await reviewKnowledgeItem(rt.handle.db, ownerId, id, patch);
  if (!item) throw new AppError("not_found", "No such knowledge item.");
  return item;
}

/** Admins only: share one of their own items with every account, or take it back. */
export async function shareOwnKnowledgeItem(
  rt: Runtime,
  ownerId: string,
  id: string,
  shared: boolean,
): Promise<KnowledgeItem> {
  const item = await setKnowledgeShared(rt.handle.db, ownerId, id, shared);
  if (!item) throw new AppError("not_found", "No such knowledge item.");
  return item;
}
