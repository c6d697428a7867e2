"use server";
/**
 * The "Ask about this report" form: the same askQuestion as POST /api/runs/:id/questions, posted
 * as a server action so it works before the page is hydrated.
 */
import { runIdOrNotFound } from "../ids.ts";
import { askQuestion } from "../questions/ask-question.ts";
import { askQuestionRequestSchema } from "../questions/schemas.ts";
import { serverRuntime } from "../runtime.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, formFields, okState, parseForm, runAction } from "./action-state.ts";

export async function askQuestionAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runId, question } = formFields(form);
    const id = runIdOrNotFound(typeof runId === "string" ? runId : "");
    const input = parseForm(askQuestionRequestSchema, { question: question ?? "" });
    const caller = await actionCaller("actions");
    const asked = await askQuestion(await serverRuntime(), id, caller.userId, input);
    return okState("Asked: the answer is being written from the run's sources.", {
      questionId: asked.id,
      eventSeq: asked.eventSeq,
    });
  });
}
