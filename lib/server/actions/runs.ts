"use server";
/**
 * The home page's forms: start a run, delete a run. Each calls the same lib/server function as
 * its route handler (POST /api/runs → createAndEnqueueRun, DELETE /api/runs/:id → deleteRun), with
 * the same validation, configuration check and rate limit.
 */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { runIdOrNotFound } from "../ids.ts";
import { requireConfiguredRun } from "../model-config.ts";
import { createAndEnqueueRun } from "../run-actions.ts";
import { deleteRun } from "../run-delete.ts";
import { runFormOptions, runInputFromForm } from "../run-form.ts";
import { createRunSchema } from "../run-settings.ts";
import { serverRuntime } from "../runtime.ts";
import { serverEffectiveEnv } from "../settings/effective.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, formFields, okState, parseForm, runAction } from "./action-state.ts";

export async function createRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    // Signed in first; counted against "runs" only once the request could create a run, as the route does.
    await actionCaller();
    const env = await serverEffectiveEnv();
    const input = parseForm(createRunSchema, runInputFromForm(formFields(form), runFormOptions(env)));
    requireConfiguredRun(input.settings, env);
    const caller = await actionCaller("runs");
    const run = await createAndEnqueueRun(await serverRuntime(), { ownerId: caller.userId, ...input });
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
