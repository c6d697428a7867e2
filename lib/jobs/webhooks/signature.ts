/**
 * Webhook signatures: HMAC-SHA256 of "<timestamp>.<body>" under the person's signing secret, sent
 * as `X-DeepResearch-Signature: sha256=<hex>` beside `X-DeepResearch-Timestamp` (unix seconds).
 * Signing the timestamp with the body lets a receiver refuse an old request replayed later.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const signatureHeader = "X-DeepResearch-Signature";
export const timestampHeader = "X-DeepResearch-Timestamp";
export const eventHeader = "X-DeepResearch-Event";

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")}`;
}

/** What a receiver does: recompute the signature and compare in constant time. */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string | number,
  body: string,
  signature: string,
): boolean {
  const expected = Buffer.from(signWebhook(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
