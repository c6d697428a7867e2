/**
 * Administration (issue 16): settings an admin edits in the UI, their change record, and per-person
 * limits. Provider keys inside settings are AES-256-GCM ciphertext (lib/server/secrets.ts).
 */
import { bigint, index, integer, jsonb, pgTable, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
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

export const auditActions = ["backup", "password_reset"] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * What admins did that touches everyone's data or another person's account, visible to every admin:
 * backups (who, when, size) and password resets. Rows are only ever added.
 */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    action: text("action").$type<AuditAction>().notNull(),
    /** The admin's account; null when the backup secret (BACKUP_SECRET) asked, not a person. */
    actorId: text("actor_id"),
    /** Kept as it was then: the row outlives a renamed or deleted account. */
    actorEmail: text("actor_email"),
    /** The account a password reset was for. */
    subjectEmail: text("subject_email"),
    /** A backup's size in bytes. */
    bytes: bigint("bytes", { mode: "number" }),
    ipAddress: text("ip_address"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("admin_audit_log_created_idx").on(t.createdAt)],
);
export type AdminAuditEntry = typeof adminAuditLog.$inferSelect;

export const passwordResetEnds = ["owner_changed", "reset_again"] as const;
export type PasswordResetEnd = (typeof passwordResetEnds)[number];

/**
 * A password an admin set for someone. It is temporary until the owner sets their own (ended_at);
 * the owner's account page lists it, with every sign-in while it was in use, and nobody can remove it.
 */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    resetById: text("reset_by_id").notNull(),
    resetByName: text("reset_by_name").notNull(),
    resetByEmail: text("reset_by_email").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    /** When it stopped being the password: the owner set their own, or an admin set another. */
    endedAt: at("ended_at"),
    endReason: text("end_reason").$type<PasswordResetEnd>(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);
export type PasswordReset = typeof passwordResets.$inferSelect;

/** A sign-in to an account whose password an admin set: when, from where, with what. */
export const resetSignIns = pgTable(
  "reset_sign_ins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    resetId: uuid("reset_id")
      .notNull()
      .references(() => passwordResets.id, { onDelete: "cascade" }),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("reset_sign_ins_reset_idx").on(t.resetId)],
);
export type ResetSignIn = typeof resetSignIns.$inferSelect;
