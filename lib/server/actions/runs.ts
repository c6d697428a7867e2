"use server";
/**
 * The home page's forms: start a run, delete a run. Each calls the same lib/server/runs action as
 * its route handler (POST /api/runs → startRun, DELETE /api/runs/:id → deleteRun), with the same
 * validation, configuration check and rate limit.
 */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { runIdOrNotFound } from "../ids.ts";
import { userRateLimitKey } from "../rate-limits.ts";
import { deleteRun } from "../runs/delete.ts";
import { runFormOptions, runInputFromForm } from "../runs/form.ts";
import { createRunSchema } from "../runs/input.ts";
import { startRun } from "../runs/start.ts";
import { serverRuntime } from "../runtime.ts";
import { serverEffectiveEnv } from "../settings/effective.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, formFields, okState, parseForm, runAction } from "./action-state.ts";

export async function createRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    // Signed in first; startRun counts it against "runs" once the request could create a run.
    const caller = await actionCaller();
    const rt = await serverRuntime();
    const options = runFormOptions(await serverEffectiveEnv(rt));
    const input = parseForm(createRunSchema, runInputFromForm(formFields(form), options));
    const run = await startRun(rt, { caller, rateLimitKey: userRateLimitKey(caller.userId) }, input);
    redirect(`/runs/${run.id}`);
  });
}

const deleteRunForm = z.object({ id: z.string() });

export async function deleteRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { id } = parseForm(deleteRunForm, form);
    const caller = await actionCaller("actions");
    await deleteRun(await serverRuntime(), runIdOrNotFound(id), caller.userId);
    revalidatePath("/");
    return okState("The run was deleted.", { id });
  });
}
