/**
 * Administration (issue 16): settings an admin edits in the UI, their change record, and per-person
 * limits. Provider keys inside settings are AES-256-GCM ciphertext (lib/server/secrets.ts).
 */
import { integer, jsonb, pgTable, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth-schema.ts";

const at = (name: string) => timestamp(name, { withTimezone: true });

/** One row per setting area ("models", "providers", "search", "runs"); the value's shape is zod-checked. */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<Record<string, unknown>>().notNull(),
  updatedBy: text("updated_by"),
  updatedAt: at("updated_at").notNull().defaultNow(),
});
export type AppSetting = typeof appSettings.$inferSelect;

/** Who changed which setting when, and what changed in words; never a secret's value. */
export const settingsChanges = pgTable("settings_changes", {
  id: uuid("id").primaryKey().defaultRandom(),
  actorId: text("actor_id").notNull(),
  key: text("key").notNull(),
  summary: text("summary").notNull(),
  createdAt: at("created_at").notNull().defaultNow(),
});
export type SettingsChange = typeof settingsChanges.$inferSelect;

/** Per-person limits set by an admin; null means the server's default applies. */
export const userLimits = pgTable("user_limits", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  maxConcurrentRuns: integer("max_concurrent_runs"),
  monthlyCostLimitUsd: real("monthly_cost_limit_usd"),
  updatedAt: at("updated_at").notNull().defaultNow(),
});
export type UserLimit = typeof userLimits.$inferSelect;
