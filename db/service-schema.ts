/**
 * Research as a service: personal API tokens and webhook deliveries (issue 15). Secrets are never
 * stored in the clear: tokens as a SHA-256, webhook signing secrets encrypted with AUTH_SECRET.
 */
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { TokenScope } from "../lib/token-scopes.ts";
import { users } from "./auth-schema.ts";

const at = (name: string) => timestamp(name, { withTimezone: true });

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the secret; the secret itself is shown once, at creation. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The secret's last four characters, so a person can tell their tokens apart. */
    hint: text("hint").notNull(),
    /** Where run.completed / run.failed of runs started with this token are posted (optional). */
    webhookUrl: text("webhook_url"),
    scope: text("scope").$type<TokenScope>().notNull().default("research"),
    /** Made before tokens had scopes: the upgrade gave it `research` and an expiry (shown on the account page). */
    scopeFromUpgrade: boolean("scope_from_upgrade").notNull().default(false),
    createdAt: at("created_at").notNull().defaultNow(),
    /** Every token expires (at most a year after it was made; an `admin` one within 90 days). */
    expiresAt: at("expires_at").notNull(),
    lastUsedAt: at("last_used_at"),
    /** Revoking sets revoked_at; the row stays so the list can say when. */
    revokedAt: at("revoked_at"),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);
export type ApiToken = typeof apiTokens.$inferSelect;

/** One signing secret per person: webhooks are signed with HMAC-SHA256 under it. */
export const webhookSecrets = pgTable("webhook_secrets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** AES-256-GCM ciphertext (lib/server/secrets.ts); the owner can reveal it on the account page. */
  secretCipher: text("secret_cipher").notNull(),
  createdAt: at("created_at").notNull().defaultNow(),
});
export type WebhookSecret = typeof webhookSecrets.$inferSelect;

export const webhookDeliveryStatuses = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** A webhook owed for a run's terminal event; unique per run, url and event so it goes out once. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id").notNull(),
    ownerId: text("owner_id").notNull(),
    url: text("url").notNull(),
    event: text("event").notNull(),
    /** What the event adds to the payload (run.version_ready: the previous version and the diff's counts). */
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** HTTP status of the last attempt, when one answered. */
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    createdAt: at("created_at").notNull().defaultNow(),
    deliveredAt: at("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_once_idx").on(t.runId, t.url, t.event),
    index("webhook_deliveries_owner_idx").on(t.ownerId),
  ],
);
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
