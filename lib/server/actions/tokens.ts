"use server";
/**
 * The account page's API access forms: create and revoke personal API tokens (the same functions
 * as POST /api/tokens and DELETE /api/tokens/:id), and reveal or rotate the webhook signing
 * secret. A server action needs the session cookie, so a bearer token can never mint a token here.
 */
import { z } from "zod";
import { newWebhookSecret, revealWebhookSecret } from "../accounts/webhook-secret.ts";
import { serverRuntime } from "../runtime.ts";
import { createToken, createTokenSchema } from "../tokens/create.ts";
import { revokeToken } from "../tokens/revoke.ts";
import { actionCaller } from "./action-caller.ts";
import { type ActionState, okState, parseForm, runAction } from "./action-state.ts";

// An empty field means "not given": the default scope and expiry, no webhook.
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const createForm = z.object({
  name: z.string(),
  scope: z.preprocess(blankToUndefined, z.string().optional()),
  expiresInDays: z.preprocess(blankToUndefined, z.coerce.number().optional()),
  webhookUrl: z.preprocess(blankToUndefined, z.string().trim().optional()),
});

const revokeForm = z.object({ tokenId: z.uuid() });

/** A new token; its secret is in this answer only (the server keeps its hash). */
export async function createTokenAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const fields = parseForm(createForm, form);
    const request = createTokenSchema.parse({
      name: fields.name,
      ...(fields.scope !== undefined ? { scope: fields.scope } : {}),
      ...(fields.expiresInDays !== undefined ? { expiresInDays: fields.expiresInDays } : {}),
      ...(fields.webhookUrl ? { webhookUrl: fields.webhookUrl } : {}),
    });
    const { token, secret } = await createToken(await serverRuntime(), caller, request);
    return okState("Token created. Copy it now: you will not see it again.", { secret, tokenId: token.id });
  });
}

export async function revokeTokenAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const { tokenId } = parseForm(revokeForm, form);
    await revokeToken(await serverRuntime(), tokenId, caller.userId);
    return okState("Token revoked: requests with it are refused from now on.", { tokenId });
  });
}

export async function revealWebhookSecretAction(_prev: ActionState, _form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const secret = await revealWebhookSecret(await serverRuntime(), caller.userId);
    return okState("Your webhook signing secret.", { secret });
  });
}

export async function rotateWebhookSecretAction(_prev: ActionState, _form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const secret = await newWebhookSecret(await serverRuntime(), caller.userId);
    return okState("New signing secret made: webhooks are signed with it from now on.", { secret });
  });
}
