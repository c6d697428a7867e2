/**
 * Reviewing knowledge items (PATCH /api/knowledge/:id and the knowledge page's buttons): approve →
 * established, reject → deprecated, restore → the status before (the page's undo), edit → new
 * text or category; share/unshare with every account, for admins only. One review applies to each
 * id in turn; the admin check comes first, so a refused share changes nothing.
 */
import { z } from "zod";
import { reviewKnowledgeItem, setKnowledgeShared } from "../../../db/queries/knowledge.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { type KnowledgeCategory, type KnowledgeStatus, knowledgeCategories } from "../../research/ui.ts";
import type { Caller } from "../auth/caller.ts";
import { type KnowledgeItemView, viewOf } from "./item-view.ts";

/** PATCH /api/knowledge/:id: approve → established, reject → deprecated, edit → new content/category; share/unshare (admins). */
export const reviewKnowledgeSchema = z
  .strictObject({
    action: z.enum(["approve", "reject", "edit", "share", "unshare"]),
    content: z.string().trim().min(3).max(500).optional(),
    category: z.enum(knowledgeCategories).optional(),
  })
  .refine((v) => v.action !== "edit" || v.content || v.category, {
    message: "edit needs content or category",
  });

export type KnowledgeReview =
  | { action: "approve" | "reject" }
  | { action: "share" | "unshare" }
  | { action: "restore"; previous: KnowledgeStatus }
  | { action: "edit"; content?: string; category?: KnowledgeCategory };

export async function reviewKnowledge(
  rt: Runtime,
  caller: Pick<Caller, "userId" | "role">,
  ids: readonly string[],
  review: KnowledgeReview,
): Promise<KnowledgeItemView[]> {
  if (isSharing(review)) {
    if (caller.role !== "admin") {
      throw new AppError("forbidden", "Only an admin can share knowledge with everyone.");
    }
    const shared = review.action === "share";
    const items: KnowledgeItemView[] = [];
    for (const id of ids) items.push(await shareOwnKnowledgeItem(rt, caller.userId, id, shared));
    return items;
  }
  const patch = patchOf(review);
  const items: KnowledgeItemView[] = [];
  for (const id of ids) items.push(await reviewOwnKnowledgeItem(rt, caller.userId, id, patch));
  return items;
}

type Sharing = Extract<KnowledgeReview, { action: "share" | "unshare" }>;
const isSharing = (review: KnowledgeReview): review is Sharing =>
  review.action === "share" || review.action === "unshare";

function patchOf(review: Exclude<KnowledgeReview, Sharing>) {
  switch (review.action) {
    case "approve":
      return { status: "established" as const };
    case "reject":
      return { status: "deprecated" as const };
    case "restore":
      return { status: review.previous };
    case "edit":
      return { content: review.content, category: review.category };
  }
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
