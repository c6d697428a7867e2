/**
 * CLARIFICATION? → BRIEF. Clarification asks one question only when the request cannot be
 * researched as written; the brief restates the request, specific and first-person, in its own
 * language, with relevant established knowledge as background. Neither ever fails the run on a
 * model problem: no clarification is asked, or the brief falls back to the person's own words.
 */
import { z } from "zod";
import type { EngineDeps } from "../deps.ts";
import { recoverableMessage } from "../errors.ts";
import {
  briefInstructions,
  briefPrompt,
  CLARIFY_INSTRUCTIONS,
  clarifyPrompt,
  fallbackBrief,
} from "../prompts/brief.ts";
import type { KnowledgeItemRecord } from "../store.ts";
import { topicTokens } from "./supervision/dedup.ts";

const CHARS_PER_TOKEN = 4;

export const clarificationSchema = z.object({
  needs_clarification: z.boolean(),
  question: z.string(),
  reason: z.string(),
});

/**
 * Whether the request needs one clarifying question first. The caller (the orchestrator) checks
 * `config.clarification`, stores the question, emits `clarification.requested` and waits for the
 * answer. A failed or unusable model answer means "not needed": research goes ahead as asked.
 */
export async function clarify(
  deps: EngineDeps,
  input: { question: string },
): Promise<{ needed: boolean; question?: string }> {
  try {
    const r = await deps.models.object("supervisor", {
      instructions: CLARIFY_INSTRUCTIONS,
      prompt: clarifyPrompt(input.question),
      schema: clarificationSchema,
      schemaName: "clarification",
      abortSignal: deps.signal,
    });
    if (!r.ok || !r.value.needs_clarification) return { needed: false };
    const question = r.value.question.trim();
    return question ? { needed: true, question } : { needed: false };
  } catch (e) {
    recoverableMessage(e, deps.signal);
    return { needed: false };
  }
}

/**
 * The established knowledge worth giving to this question, within `budgetTokens` (≈4 chars a
 * token). Findings and domain notes must share at least one content term with the question;
 * lessons are general advice and always qualify. Most overlapping first, then the store's order
 * (newest first).
 */
export function selectKnowledge(
  items: readonly KnowledgeItemRecord[],
  question: string,
  budgetTokens: number,
): KnowledgeItemRecord[] {
  const q = topicTokens(question);
  const scored = items
    .filter((k) => k.status === "established")
    .map((k, index) => {
      let overlap = 0;
      for (const t of topicTokens(k.content)) if (q.has(t)) overlap++;
      return { k, index, overlap };
    })
    .filter((s) => s.overlap > 0 || s.k.category === "lesson")
    .sort((a, b) => b.overlap - a.overlap || a.index - b.index);
  const budget = budgetTokens * CHARS_PER_TOKEN;
  const chosen: KnowledgeItemRecord[] = [];
  let used = 0;
  for (const { k } of scored) {
    // Line overhead of the rendered item (category, confidence) counted with the content.
    const size = k.content.length + 40;
    if (used + size > budget) continue;
    used += size;
    chosen.push(k);
  }
  return chosen;
}

export interface WriteBriefInput {
  question: string;
  clarificationQuestion?: string;
  clarificationAnswer?: string;
  /** Established knowledge of the run's owner (the store's listEstablishedKnowledge); trimmed here. */
  knowledge: readonly KnowledgeItemRecord[];
}

/** Writes, saves (`store.saveBrief`) and announces (`brief.created`) the research brief. */
export async function writeBrief(deps: EngineDeps, input: WriteBriefInput): Promise<string> {
  const knowledge = selectKnowledge(input.knowledge, input.question, deps.config.knowledgeBudgetTokens);
  let brief = "";
  let failure: string | undefined;
  try {
    const r = await deps.models.text("supervisor", {
      instructions: briefInstructions(deps.config.reportLanguage),
      prompt: briefPrompt({
        question: input.question,
        clarificationQuestion: input.clarificationQuestion,
        clarificationAnswer: input.clarificationAnswer,
        knowledge,
        language: deps.config.reportLanguage,
      }),
      maxOutputTokens: 1500,
      abortSignal: deps.signal,
    });
    brief = r.text.trim();
    if (!brief) failure = "the model returned an empty brief";
  } catch (e) {
    failure = recoverableMessage(e, deps.signal);
  }
  if (failure !== undefined) brief = fallbackBrief(input.question, input.clarificationAnswer);
  await deps.store.saveBrief(brief);
  await deps.events.emit({
    type: "brief.created",
    brief,
    knowledgeItems: knowledge.length,
    ...(failure !== undefined
      ? { fallback: true, reason: `brief written from the question as asked: ${failure}` }
      : {}),
  });
  return brief;
}
