/**
 * Each person's webhook signing secret: made on first need, stored encrypted under a key derived
 * from AUTH_SECRET (purpose "webhooks"), shown only to its owner. The worker signs with it; the
 * account page reveals and rotates it (lib/server/webhooks.ts).
 */

import type { Db } from "../../../db/client.ts";
import { defaultDataDir } from "../../../db/client.ts";
import {
  getWebhookSecretCipher,
  insertWebhookSecret,
  replaceWebhookSecret,
} from "../../../db/queries/webhooks.ts";
import type { Env } from "../../env.ts";
import { decryptSecret, encryptSecret, newToken, resolveAuthSecret } from "../../secrets.ts";

/** Signing secrets start with this, so people and secret scanners can tell what one is. */
export const webhookSecretPrefix = "whsec_";

export function webhookAuthSecret(env: Env = process.env): string {
  return resolveAuthSecret(env, defaultDataDir(env as NodeJS.ProcessEnv));
}

/** The person's signing secret in the clear, created (and stored encrypted) the first time. */
export async function webhookSecretFor(db: Db, userId: string, authSecret: string): Promise<string> {
  let cipher = await getWebhookSecretCipher(db, userId);
  if (!cipher) {
    const fresh = encryptSecret(newToken(webhookSecretPrefix), authSecret, "webhooks");
    cipher = await insertWebhookSecret(db, userId, fresh);
  }
  return decryptSecret(cipher, authSecret, "webhooks");
}

/** A new secret replaces the old one at once; the old one signs nothing from now on. */
export async function rotateWebhookSecret(db: Db, userId: string, authSecret: string): Promise<string> {
  const secret = newToken(webhookSecretPrefix);
  await replaceWebhookSecret(db, userId, encryptSecret(secret, authSecret, "webhooks"));
  return secret;
}
