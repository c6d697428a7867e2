"use server";
/**
 * The knowledge page's forms: review (approve, reject, undo, edit, share) and add. Each calls the
 * same lib/server/knowledge functions as PATCH /api/knowledge/:id and POST /api/knowledge, so
 * ownership (a 404 for anyone else's item) and the edit history are the route's own.
 */
import { z } from "zod";
import { knowledgeCategories, knowledgeStatuses } from "../../research/ui.ts";
import { addOwnKnowledgeItem } from "../knowledge/add.ts";
import { reviewKnowledge } from "../knowledge/review.ts";
import { serverRuntime } from "../runtime.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, okState, parseForm, runAction } from "./action-state.ts";

const ids = z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(z.uuid()).min(1).max(50));

/** restore: the undo of approve/reject, back to the status the items had before. */
const reviewSchema = z.discriminatedUnion("action", [
  // `previous`: the status the form showed, echoed back so the answer can offer its undo.
  z.object({ action: z.literal("approve"), id: ids, previous: z.enum(knowledgeStatuses).optional() }),
  z.object({ action: z.literal("reject"), id: ids, previous: z.enum(knowledgeStatuses).optional() }),
  z.object({ action: z.literal("share"), id: ids }),
  z.object({ action: z.literal("unshare"), id: ids }),
  z.object({ action: z.literal("restore"), id: ids, previous: z.enum(knowledgeStatuses) }),
  z.object({
    action: z.literal("edit"),
    id: ids,
    content: z.string().trim().min(3).max(500),
    category: z.enum(knowledgeCategories),
  }),
]);

const verbs = {
  approve: "Approved",
  reject: "Rejected",
  restore: "Undone:",
  edit: "Saved",
  share: "Shared with everyone:",
  unshare: "No longer shared:",
} as const;

const quote = (s: string) => `“${s.length > 80 ? `${s.slice(0, 79)}…` : s}”`;

export async function reviewKnowledgeAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const input = parseForm(reviewSchema, form);
    const items = await reviewKnowledge(await serverRuntime(), caller, input.id, input);
    return okState(`${verbs[input.action]} ${quote(items[0].content)}.`, {
      action: input.action,
      ids: input.id,
      ...("previous" in input && input.previous ? { previous: input.previous } : {}),
      // JSON-shaped, as the page's initial items are: the client merges them into its list.
      items: JSON.parse(JSON.stringify(items)),
    });
  });
}

const addSchema = z.object({
  category: z.enum(knowledgeCategories),
  content: z.string().trim().min(3).max(500),
});

export async function addKnowledgeAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const input = parseForm(addSchema, form);
    const item = await addOwnKnowledgeItem(await serverRuntime(), caller.userId, input);
    return okState(`Added ${quote(item.content)}.`, { item: JSON.parse(JSON.stringify(item)) });
  });
}
