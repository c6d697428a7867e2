/**
 * Reviewing knowledge items (PATCH /api/knowledge/:id and the knowledge page's buttons): approve →
 * established, reject → deprecated, restore → the status before (the page's undo), edit → new
 * text or category; share/unshare with every account, for admins only. One review applies to each
 * id in turn; the admin check comes first, so a refused share changes nothing.
 */
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import type { KnowledgeCategory, KnowledgeStatus } from "../../research/ui.ts";
import type { Caller } from "../auth/caller.ts";
import { type KnowledgeItemView, reviewOwnKnowledgeItem, shareOwnKnowledgeItem } from "./index.ts";

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
