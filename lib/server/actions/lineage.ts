"use server";
/**
 * "Research this deeper" (under a report, and on a question its sources could not answer): the
 * same researchDeeper as POST /api/runs/:id/deeper, posted as a server action so it works before
 * the page is hydrated; on success, on to the child run's page.
 */
import { redirect } from "next/navigation";
import { runIdOrNotFound } from "../ids.ts";
import { userRateLimitKey } from "../rate-limits.ts";
import { deeperRequestSchema, researchDeeper } from "../runs/deeper.ts";
import { serverRuntime } from "../runtime.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, formFields, okState, parseForm, runAction } from "./action-state.ts";

export async function researchDeeperAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const state = await runAction(async () => {
    const { runId, question } = formFields(form);
    const id = runIdOrNotFound(typeof runId === "string" ? runId : "");
    const text = typeof question === "string" && question.trim() ? question : undefined;
    const input = parseForm(deeperRequestSchema, text ? { question: text } : {});
    const caller = await actionCaller();
    const starter = { caller, rateLimitKey: userRateLimitKey(caller.userId) };
    const created = await researchDeeper(await serverRuntime(), starter, id, input);
    return okState("Started: a follow-up run researching this deeper.", { id: created.id });
  });
  // Outside runAction's try, so the redirect is the only way this returns on success.
  if (state.status === "ok" && typeof state.data?.id === "string") redirect(`/runs/${state.data.id}`);
  return state;
}
