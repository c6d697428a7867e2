/** Adding an item the person writes themselves (POST /api/knowledge and the knowledge page's form). */
import { z } from "zod";
import { addKnowledgeItem } from "../../../db/queries/knowledge.ts";
import type { KnowledgeItem } from "../../../db/schema.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { knowledgeCategories } from "../../research/ui.ts";
import { type KnowledgeItemView, viewOf } from "./item-view.ts";

/** The body of POST /api/knowledge: an item the person writes themselves. */
export const addKnowledgeSchema = z.strictObject({
  category: z.enum(knowledgeCategories),
  content: z.string().trim().min(3).max(500),
});

export async function addOwnKnowledgeItem(
  rt: Runtime,
  ownerId: string,
  input: Pick<KnowledgeItem, "category" | "content">,
): Promise<KnowledgeItemView> {
  return viewOf(await addKnowledgeItem(rt.handle.db, ownerId, input), ownerId);
}
