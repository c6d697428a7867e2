"use server";
/**
 * The run page's share forms: create and revoke a share link. Each calls the same lib/server
 * function as its route handler (POST /api/runs/:id/shares, DELETE /api/shares/:id), so ownership,
 * expiry and the token's one-time display are decided in one place.
 */
import { headers } from "next/headers";
import { z } from "zod";
import { publicOrigin } from "../auth/settings.ts";
import { serverRuntime } from "../runtime.ts";
import { shareRun } from "../shares/create.ts";
import { shareRequestSchema } from "../shares/requests.ts";
import { revokeOwnShare } from "../shares/revoke.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, okState, parseForm, runAction } from "./action-state.ts";

const createForm = z.object({
  runId: z.uuid(),
  label: z.string().trim().max(100).optional(),
  // The form's "never expires" is 0; the API's request leaves the field out.
  expiresInDays: z.coerce.number().int().min(0).max(365).optional(),
  // A checkbox: sent as "on" when ticked, absent otherwise.
  allowDownload: z.literal("on").optional(),
  includeThread: z.literal("on").optional(),
});

const revokeForm = z.object({ shareId: z.uuid() });

/** The origin the browser used, as the route handler reads it from its Request. */
async function origin(): Promise<string> {
  const h = await headers();
  return publicOrigin(new Request("http://localhost/", { headers: h }));
}

/** A new link; its URL is in this answer only (the server keeps a hash of the token). */
export async function createShareAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const input = parseForm(createForm, form);
    const request = shareRequestSchema.parse({
      ...(input.label ? { label: input.label } : {}),
      ...(input.expiresInDays ? { expiresInDays: input.expiresInDays } : {}),
      ...(input.allowDownload ? { allowDownload: true } : {}),
      ...(input.includeThread ? { includeThread: true } : {}),
    });
    const { share, token } = await shareRun(await serverRuntime(), input.runId, caller.userId, request);
    const url = `${await origin()}/share/${token}`;
    return okState("Share link created. Copy it now: it is not shown again.", { url, shareId: share.id });
  });
}

export async function revokeShareAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const { shareId } = parseForm(revokeForm, form);
    await revokeOwnShare(await serverRuntime(), shareId, caller.userId);
    return okState("Link revoked: it no longer opens the report.", { shareId });
  });
}
