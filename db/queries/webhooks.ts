/** Webhooks: each person's signing secret (encrypted), and the deliveries owed for runs' terminal events. */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { apiTokens, type WebhookDelivery, webhookDeliveries, webhookSecrets } from "../schema.ts";

export async function getWebhookSecretCipher(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ cipher: webhookSecrets.secretCipher })
    .from(webhookSecrets)
    .where(eq(webhookSecrets.userId, userId));
  return row?.cipher;
}

/** Stores a first secret; when one was stored meanwhile (two first uses at once), keeps that one. */
export async function insertWebhookSecret(db: Db, userId: string, cipher: string): Promise<string> {
  await db.insert(webhookSecrets).values({ userId, secretCipher: cipher }).onConflictDoNothing();
  return (await getWebhookSecretCipher(db, userId)) ?? cipher;
}

/** Replaces the person's secret (rotation): deliveries from now on are signed with the new one. */
export async function replaceWebhookSecret(db: Db, userId: string, cipher: string): Promise<void> {
  await db
    .insert(webhookSecrets)
    .values({ userId, secretCipher: cipher })
    .onConflictDoUpdate({
      target: webhookSecrets.userId,
      set: { secretCipher: cipher, createdAt: sql`now()` },
    });
}

/** The webhook URL of the owner's live token, if it has one. */
export async function tokenWebhookUrl(db: Db, tokenId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ url: apiTokens.webhookUrl })
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  return row?.url ?? null;
}

/** The delivery owed for a run's event; undefined when it was already owed (the unique key). */
export async function insertWebhookDelivery(
  db: Db,
  values: { runId: string; ownerId: string; url: string; event: string; detail?: Record<string, unknown> },
): Promise<WebhookDelivery | undefined> {
  const [row] = await db.insert(webhookDeliveries).values(values).onConflictDoNothing().returning();
  return row;
}

export async function getWebhookDelivery(db: Db, id: string): Promise<WebhookDelivery | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

export function listRunWebhookDeliveries(db: Db, runId: string): Promise<WebhookDelivery[]> {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.runId, runId));
}

/** Counts an attempt on a pending delivery; undefined when it is no longer pending (nothing to send). */
export async function startDeliveryAttempt(db: Db, id: string): Promise<WebhookDelivery | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "pending")))
    .returning();
  return row;
}

/** What an attempt ended with: still pending (a retry follows), delivered, or failed for good. */
export async function recordDeliveryAttempt(
  db: Db,
  id: string,
  outcome: Pick<WebhookDelivery, "status" | "lastStatus" | "lastError" | "deliveredAt">,
): Promise<void> {
  await db.update(webhookDeliveries).set(outcome).where(eq(webhookDeliveries.id, id));
}
