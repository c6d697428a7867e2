/**
 * Scheduled refresh of a report and the in-app notices it leads to (issue 32). The schedule itself
 * lives in pg-boss's schedule table (durable, shared by every process); run_schedules keeps what
 * the pages show: how often, the next time, and why a schedule is paused.
 */
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth-schema.ts";
import { runs } from "./schema.ts";

const at = (name: string) => timestamp(name, { withTimezone: true });

export const scheduleIntervals = ["day", "week", "month"] as const;
export type ScheduleInterval = (typeof scheduleIntervals)[number];

/** One schedule per report, keyed by the report's first run (versions share it as `versionOf`). */
export const runSchedules = pgTable(
  "run_schedules",
  {
    reportId: uuid("report_id")
      .primaryKey()
      .references(() => runs.id, { onDelete: "cascade" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    every: text("every").$type<ScheduleInterval>().notNull(),
    /** The cron expression given to pg-boss (UTC). */
    cron: text("cron").notNull(),
    nextRunAt: at("next_run_at"),
    /** Why the last scheduled refresh did not start (limits, budget); null while it runs as planned. */
    pausedReason: text("paused_reason"),
    /** The same as the API error it was (code and details), so each reader sees it in their language. */
    pausedError: jsonb("paused_error").$type<PausedError>(),
    pausedAt: at("paused_at"),
    lastRunId: uuid("last_run_id"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [index("run_schedules_owner_idx").on(t.ownerId)],
);
export type RunSchedule = typeof runSchedules.$inferSelect;

/** Why a schedule paused, as the API error it was: its stable code and the values its words need. */
export interface PausedError {
  code: string;
  details: Record<string, unknown> | null;
}

export const notificationKinds = ["version_ready", "schedule_paused"] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** An in-app notice for one person, about one of their runs. */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NotificationKind>().notNull(),
    /** The run the notice links to (the new version, or the report whose schedule paused). */
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** Kind-specific details: the diff's counts, the pause reason. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: at("created_at").notNull().defaultNow(),
    readAt: at("read_at"),
  },
  (t) => [index("notifications_owner_idx").on(t.ownerId, t.createdAt)],
);
export type Notification = typeof notifications.$inferSelect;
