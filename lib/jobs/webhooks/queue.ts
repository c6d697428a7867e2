/**
 * The webhook queue: one pg-boss job per owed delivery, apart from the run queue so a slow
 * receiver never holds a run slot. A failed attempt (a 5xx, a timeout, no answer) is retried with
 * exponential backoff: about retryDelay · 2^n seconds, capped at retryDelayMax.
 */
import type { PgBoss } from "pg-boss";
import { type Db, queueTransaction } from "../../../db/client.ts";
import { type Env, envNumber } from "../../env.ts";

export const WEBHOOK_QUEUE = "webhook-delivery";

export interface WebhookJobData {
  deliveryId: string;
}

export interface WebhookQueueSettings {
  /** Attempts after the first. */
  retryLimit: number;
  /** Seconds before the first retry; doubled for each one after it. */
  retryDelay: number;
  retryDelayMax: number;
}

export function webhookQueueSettingsFromEnv(env: Env = process.env): WebhookQueueSettings {
  return {
    retryLimit: envNumber(env, "WEBHOOK_RETRY_LIMIT", 6, { min: 0, integer: true }),
    retryDelay: envNumber(env, "WEBHOOK_RETRY_DELAY_SECONDS", 30, { min: 1, integer: true }),
    retryDelayMax: 3600,
  };
}

export async function ensureWebhookQueue(boss: PgBoss, settings: WebhookQueueSettings): Promise<void> {
  const options = {
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelay,
    retryBackoff: true,
    retryDelayMax: settings.retryDelayMax,
    // An attempt waits at most 10 s for its receiver; a minute covers that with room to spare.
    expireInSeconds: 60,
    notify: true,
  };
  const existing = await boss.getQueue(WEBHOOK_QUEUE);
  if (!existing) await boss.createQueue(WEBHOOK_QUEUE, options);
  else await boss.updateQueue(WEBHOOK_QUEUE, options);
  // Fill pg-boss's queue cache outside any transaction (see ensureQueue in ../queue.ts): a send
  // inside a PGlite transaction must not look the queue up over the same connection.
  await boss.getJobById(WEBHOOK_QUEUE, "00000000-0000-4000-8000-000000000000");
}

/** Enqueues a delivery inside the caller's transaction: the job exists exactly when the row does. */
export async function enqueueWebhookDelivery(boss: PgBoss, tx: Db, deliveryId: string): Promise<void> {
  await boss.send(WEBHOOK_QUEUE, { deliveryId } satisfies WebhookJobData, {
    db: queueTransaction(tx),
    singletonKey: deliveryId,
  });
}
