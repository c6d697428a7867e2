/** The webhook worker: takes delivery jobs beside the run worker, in the same processes. */
import type { PgBoss } from "pg-boss";
import type { Db } from "../../../db/client.ts";
import type { Env } from "../../env.ts";
import { deliverWebhook } from "./deliver.ts";
import {
  ensureWebhookQueue,
  WEBHOOK_QUEUE,
  type WebhookJobData,
  webhookQueueSettingsFromEnv,
} from "./queue.ts";

export async function startWebhookWorker(
  db: Db,
  boss: PgBoss,
  opts: { env?: Env; pollSeconds?: number } = {},
): Promise<{ stop(): Promise<void> }> {
  const env = opts.env ?? process.env;
  const poll = opts.pollSeconds ?? 5;
  const settings = webhookQueueSettingsFromEnv(env);
  await ensureWebhookQueue(boss, settings);
  await boss.work<WebhookJobData>(
    WEBHOOK_QUEUE,
    {
      localConcurrency: 2,
      pollingIntervalSeconds: poll,
      // NOTIFY wakes the worker for a new delivery; a retry's later start is found by polling.
      notifyPollingIntervalSeconds: poll,
    },
    async (jobs) => {
      for (const job of jobs) {
        await deliverWebhook(db, job.data.deliveryId, { last: job.retryCount >= settings.retryLimit, env });
      }
    },
  );
  return {
    async stop() {
      await boss.offWork(WEBHOOK_QUEUE, { wait: true }).catch(() => {});
    },
  };
}
