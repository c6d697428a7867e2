/**
 * One delivery attempt: sign the run's terminal event with its owner's secret and POST it.
 * 2xx → delivered. 5xx, 408, 429 or no answer → the job throws and pg-boss retries it with backoff
 * (the last attempt marks it failed). Any other answer, and a refused address, fail it at once:
 * sending the same request again would not change the answer.
 */
import type { Db } from "../../../db/client.ts";
import { getRun } from "../../../db/queries/runs.ts";
import { recordDeliveryAttempt, startDeliveryAttempt } from "../../../db/queries/webhooks.ts";
import type { Run, WebhookDelivery } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";
import { parseAllowedHosts } from "../../fetch/allowed-hosts.ts";
import { type PostResult, postWebhook } from "./post.ts";
import { webhookAuthSecret, webhookSecretFor } from "./secret.ts";
import { eventHeader, signatureHeader, signWebhook, timestampHeader } from "./signature.ts";

export interface WebhookPayload {
  event: string;
  runId: string;
  status: string;
  question: string;
  /** The run's dashboard. */
  url: string;
  /** The report as Markdown (needs the owner's session or API token). */
  report: string;
  /** When the run ended (ISO 8601). */
  at: string;
  /** run.version_ready only: the report (first run), the version compared with, and the diff's counts. */
  reportId?: string;
  previousRunId?: string;
  diff?: unknown;
}

/** The app's public origin for links: APP_URL, else localhost on PORT (as the server itself assumes). */
export function appOrigin(env: Env): string {
  const configured = env.APP_URL?.trim();
  if (configured) return new URL(configured).origin;
  return `http://localhost:${env.PORT?.trim() || "3000"}`;
}

export function webhookPayload(delivery: WebhookDelivery, run: Run, origin: string): WebhookPayload {
  return {
    event: delivery.event,
    runId: run.id,
    status: run.status,
    question: run.question,
    url: `${origin}/runs/${run.id}`,
    report: `${origin}/api/runs/${run.id}/report.md`,
    at: delivery.createdAt.toISOString(),
    ...(delivery.detail ?? {}),
  };
}

export class RetryableDeliveryError extends Error {
  override name = "RetryableDeliveryError";
}

export interface AttemptInfo {
  /** No retry follows this attempt (pg-boss's retry limit is reached). */
  last: boolean;
  env?: Env;
  timeoutMs?: number;
}

/** Makes one attempt; throws RetryableDeliveryError when pg-boss should try again. */
export async function deliverWebhook(db: Db, deliveryId: string, attempt: AttemptInfo): Promise<void> {
  const env = attempt.env ?? process.env;
  const delivery = await startDeliveryAttempt(db, deliveryId);
  if (!delivery) return; // delivered or failed already: a repeated job sends nothing
  const run = await getRun(db, delivery.runId);
  if (!run) {
    await fail(db, delivery.id, null, "The run no longer exists.");
    return;
  }
  const secret = await webhookSecretFor(db, delivery.ownerId, webhookAuthSecret(env));
  const body = JSON.stringify(webhookPayload(delivery, run, appOrigin(env)));
  const timestamp = Math.floor(Date.now() / 1000);
  const result = await postWebhook(
    delivery.url,
    body,
    {
      [eventHeader]: delivery.event,
      [timestampHeader]: String(timestamp),
      [signatureHeader]: signWebhook(secret, timestamp, body),
    },
    { allowedHosts: parseAllowedHosts(env, "WEBHOOK_ALLOWED_HOSTS"), timeoutMs: attempt.timeoutMs },
  );
  await settle(db, delivery, result, attempt.last);
}

async function settle(db: Db, delivery: WebhookDelivery, result: PostResult, last: boolean): Promise<void> {
  if (result.kind === "refused") return fail(db, delivery.id, null, `Refused: ${result.message}`);
  const status = result.kind === "answered" ? result.status : null;
  if (status !== null && status >= 200 && status < 300) {
    await recordDeliveryAttempt(db, delivery.id, {
      status: "delivered",
      lastStatus: status,
      lastError: null,
      deliveredAt: new Date(),
    });
    return;
  }
  const error =
    result.kind === "unreachable"
      ? result.message
      : status !== null && status >= 300 && status < 400
        ? `The receiver answered HTTP ${status}; webhooks do not follow redirects`
        : `The receiver answered HTTP ${status}`;
  if (!worthRetrying(result) || last) return fail(db, delivery.id, status, error);
  await recordDeliveryAttempt(db, delivery.id, {
    status: "pending",
    lastStatus: status,
    lastError: error,
    deliveredAt: null,
  });
  throw new RetryableDeliveryError(`webhook ${delivery.id} attempt ${delivery.attempts}: ${error}`);
}

/** No answer, a server error, or "too early / too many": another attempt may well succeed. */
function worthRetrying(result: PostResult): boolean {
  if (result.kind === "unreachable") return true;
  if (result.kind !== "answered") return false;
  return result.status >= 500 || result.status === 408 || result.status === 429;
}

function fail(db: Db, id: string, lastStatus: number | null, lastError: string): Promise<void> {
  return recordDeliveryAttempt(db, id, { status: "failed", lastStatus, lastError, deliveredAt: null });
}
