"use server";
/**
 * The run page's schedule form (refresh every day/week/month, or stop), and the notices menu's
 * "mark all read": the same functions as PUT/DELETE /api/runs/:id/schedule and POST
 * /api/notifications/read, posted as server actions so they work before the page is hydrated.
 */
import { revalidatePath } from "next/cache";
import { runIdOrNotFound } from "../ids.ts";
import { markNotificationsReadFor } from "../notifications/notifications.ts";
import { serverRuntime } from "../runtime.ts";
import { removeSchedule, scheduleRequestSchema, setSchedule } from "../schedules/schedule.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, formFields, okState, parseForm, runAction } from "./action-state.ts";

function formRunId(form: FormData): string {
  const { runId } = formFields(form);
  return runIdOrNotFound(typeof runId === "string" ? runId : "");
}

export async function setScheduleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const id = formRunId(form);
    const input = parseForm(scheduleRequestSchema, { every: formFields(form).every });
    const caller = await actionCaller("actions");
    await setSchedule(await serverRuntime(), caller.userId, id, input);
    revalidatePath(`/runs/${id}`);
    return okState("Scheduled.");
  });
}

export async function removeScheduleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const id = formRunId(form);
    const caller = await actionCaller("actions");
    await removeSchedule(await serverRuntime(), caller.userId, id);
    revalidatePath(`/runs/${id}`);
    return okState("Schedule removed.");
  });
}

export async function markNotificationsReadAction(_prev: ActionState, _form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const { marked } = await markNotificationsReadFor(await serverRuntime(), caller.userId, {});
    revalidatePath("/", "layout");
    return okState("Marked read.", { marked });
  });
}
