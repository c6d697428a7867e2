/**
 * Which runs owe a webhook: a run whose settings carry `webhookUrl` (given with the run, or taken
 * from the API token it was started with) owes one delivery when it ends `completed` or `failed`.
 * Called inside the transaction that writes the terminal status, so the delivery row and its job
 * commit with it; the row's unique key (run, url, event) makes a repeated ending owe nothing more.
 */
import type { PgBoss } from "pg-boss";
import type { Db } from "../../../db/client.ts";
import { getRun } from "../../../db/queries/runs.ts";
import { insertWebhookDelivery } from "../../../db/queries/webhooks.ts";
import { enqueueWebhookDelivery } from "./queue.ts";

export const webhookEventTypes = ["run.completed", "run.failed"] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export function isWebhookEvent(type: string): type is WebhookEventType {
  return (webhookEventTypes as readonly string[]).includes(type);
}

/** The run's webhook URL from its stored settings, if it has one. */
export function runWebhookUrl(settings: Record<string, unknown> | null | undefined): string | null {
  const url = settings?.webhookUrl;
  return typeof url === "string" && url ? url : null;
}

/** Owes (row + job, in `tx`) the webhook for the run's terminal event; false when none is owed. */
export async function oweRunWebhook(
  tx: Db,
  boss: PgBoss,
  runId: string,
  eventType: string,
): Promise<boolean> {
  if (!isWebhookEvent(eventType)) return false;
  const run = await getRun(tx, runId);
  const url = runWebhookUrl(run?.settings);
  if (!run || !url) return false;
  const delivery = await insertWebhookDelivery(tx, { runId, ownerId: run.ownerId, url, event: eventType });
  if (!delivery) return false;
  await enqueueWebhookDelivery(boss, tx, delivery.id);
  return true;
}
