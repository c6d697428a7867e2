/** What a person sees of a knowledge item: whether it is theirs (and so theirs to review), never who else owns it. */
import type { KnowledgeItem } from "../../../db/schema.ts";

export type KnowledgeItemView = Omit<KnowledgeItem, "ownerId"> & { own: boolean };

export function viewOf(item: KnowledgeItem, ownerId: string): KnowledgeItemView {
  const { ownerId: itemOwner, ...rest } = item;
  return { ...rest, own: itemOwner === ownerId };
}
