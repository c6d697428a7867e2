"use server";
/**
 * "Refresh" under a finished report: the same refreshRun as POST /api/runs/:id/refresh, posted as
 * a server action so it works before the page is hydrated; on success, on to the new version's page.
 */
import { redirect } from "next/navigation";
import { runIdOrNotFound } from "../ids.ts";
import { userRateLimitKey } from "../rate-limits.ts";
import { refreshRun } from "../runs/refresh.ts";
import { serverRuntime } from "../runtime.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, formFields, okState, runAction } from "./action-state.ts";

export async function refreshRunAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const state = await runAction(async () => {
    const { runId } = formFields(form);
    const id = runIdOrNotFound(typeof runId === "string" ? runId : "");
    const caller = await actionCaller();
    const starter = { caller, rateLimitKey: userRateLimitKey(caller.userId) };
    const created = await refreshRun(await serverRuntime(), starter, id);
    return okState("Started: a new version of this report.", { id: created.id });
  });
  // Outside runAction's try, so the redirect is the only way this returns on success.
  if (state.status === "ok" && typeof state.data?.id === "string") redirect(`/runs/${state.data.id}`);
  return state;
}
