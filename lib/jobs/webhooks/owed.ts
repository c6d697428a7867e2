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

/**
 * Owes (row + job, in `tx`) the webhook for the run's terminal event; false when none is owed. The
 * writes run in a savepoint: a webhook that cannot be queued is logged, and the run still ends.
 */
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
  try {
    return await tx.transaction(async (sp) => {
      const savepoint = sp as unknown as Db;
      const owed = { runId, ownerId: run.ownerId, url, event: eventType };
      const delivery = await insertWebhookDelivery(savepoint, owed);
      if (!delivery) return false;
      await enqueueWebhookDelivery(boss, savepoint, delivery.id);
      return true;
    });
  } catch (e) {
    console.error(`[deep-research] the webhook of run ${runId} could not be queued:`, e);
    return false;
  }
}
