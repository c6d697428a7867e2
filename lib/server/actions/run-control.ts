"use server";
/**
 * The run page's forms: answer the clarifying question, approve (and edit) the plan, steer, cancel,
 * finish now, run again. Each validates its form, finds the caller, and calls the same lib/server/runs
 * function as the matching route handler, so the API and the browser share one implementation.
 * The run id travels as a hidden field; one that is not a UUID names no run (not_found).
 */
import { redirect } from "next/navigation";
import { runIdOrNotFound } from "../ids.ts";
import { userRateLimitKey } from "../rate-limits.ts";
import { approvePlan } from "../runs/approve-plan.ts";
import { cancelRun } from "../runs/cancel.ts";
import { answerClarification } from "../runs/clarify.ts";
import { finishRunNow } from "../runs/finish.ts";
import { runAgain } from "../runs/start.ts";
import { addUserDirective } from "../runs/steer.ts";
import {
  approvePlanRequestSchema,
  clarificationAnswerSchema,
  planFormAdditionSchema,
  planRequestFromForm,
  skipClarificationAnswer,
  steerRequestSchema,
} from "../runs/steer-input.ts";
import { serverRuntime } from "../runtime.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, formFields, okState, parseForm, runAction } from "./action-state.ts";

/** The form's fields without the run id, and the run id checked. */
function splitRunId(form: FormData): { runId: string; fields: Record<string, string | string[]> } {
  const { runId, ...fields } = formFields(form);
  return { runId: runIdOrNotFound(typeof runId === "string" ? runId : ""), fields };
}

export async function answerClarificationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runId, fields } = splitRunId(form);
    const { answer } =
      fields.intent === "skip"
        ? { answer: skipClarificationAnswer }
        : parseForm(clarificationAnswerSchema, { answer: fields.answer ?? "" });
    const caller = await actionCaller("actions");
    await answerClarification(await serverRuntime(), runId, caller.userId, answer);
    const skipped = fields.intent === "skip";
    // `skipped` lets the form say which it was in the page's language.
    return okState(skipped ? "Skipped: the research continues without it." : "Answer sent.", { skipped });
  });
}

export async function approvePlanAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runId, fields } = splitRunId(form);
    const { request, add } = planRequestFromForm(fields);
    const { edits } = parseForm(approvePlanRequestSchema, request);
    const addition = add ? parseForm(planFormAdditionSchema, add) : null;
    const caller = await actionCaller("actions");
    // The new directive is stored with the edits and the approval, in one transaction.
    await approvePlan(await serverRuntime(), runId, caller.userId, edits, addition ? [addition] : []);
    return okState("Plan approved: the research is starting.");
  });
}

export async function steerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runId, fields } = splitRunId(form);
    const input = parseForm(steerRequestSchema, fields);
    const caller = await actionCaller("actions");
    await addUserDirective(await serverRuntime(), runId, caller.userId, input);
    return okState(`Added: ${input.topic} — it will be picked up in the next round.`, {
      topic: input.topic,
    });
  });
}

export async function cancelRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runId } = splitRunId(form);
    const caller = await actionCaller("actions");
    const { status } = await cancelRun(await serverRuntime(), runId, caller.userId);
    return okState(status === "cancelled" ? "The run was cancelled." : "Cancelling the run…", { status });
  });
}

/** "Stop and write the report now": research stops and the report is written from what was gathered. */
export async function finishRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runId } = splitRunId(form);
    const caller = await actionCaller("actions");
    await finishRunNow(await serverRuntime(), runId, caller.userId);
    return okState("Research stopped: the report is being written from what was gathered.");
  });
}

/** Run again: the same question and settings as a new run, then on to its page. */
export async function runAgainAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const state = await runAction(async () => {
    const { runId } = splitRunId(form);
    const caller = await actionCaller();
    const starter = { caller, rateLimitKey: userRateLimitKey(caller.userId) };
    const created = await runAgain(await serverRuntime(), starter, runId);
    return okState("Started again.", { id: created.id });
  });
  // Outside runAction's try, so the redirect is the only way this returns on success.
  if (state.status === "ok" && typeof state.data?.id === "string") redirect(`/runs/${state.data.id}`);
  return state;
}
