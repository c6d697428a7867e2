/**
 * Webhooks as the account page and the run API see them: the signing secret (revealed to its
 * owner, rotated on request), and which URL a new run's terminal event goes to — its own
 * `settings.webhookUrl`, else the webhook URL of the API token that started it.
 */
import { tokenWebhookUrl } from "../../../db/queries/webhooks.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { rotateWebhookSecret, webhookAuthSecret, webhookSecretFor } from "../../jobs/webhooks/secret.ts";
import type { Caller } from "../auth/caller.ts";

/** The owner's signing secret, made on first need. */
export function revealWebhookSecret(rt: Runtime, userId: string): Promise<string> {
  return webhookSecretFor(rt.handle.db, userId, webhookAuthSecret());
}

/** A new signing secret; the old one signs nothing from now on. */
export function newWebhookSecret(rt: Runtime, userId: string): Promise<string> {
  return rotateWebhookSecret(rt.handle.db, userId, webhookAuthSecret());
}

/** The settings to store for a new run: the caller's token's webhook URL unless the run gives one. */
export async function withCallerWebhook<S extends { webhookUrl?: string }>(
  rt: Runtime,
  caller: Pick<Caller, "userId" | "tokenId">,
  settings: S,
): Promise<S> {
  if (settings.webhookUrl || !caller.tokenId) return settings;
  const url = await tokenWebhookUrl(rt.handle.db, caller.tokenId, caller.userId);
  return url ? { ...settings, webhookUrl: url } : settings;
}
