/**
 * Tables that coordinate the processes sharing a database: rate-limit counters and leases. Neither
 * holds anyone's research.
 */
import { bigint, integer, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";

/**
 * Request counters of the rate limits (lib/server/rate-limits.ts), shared by every process on the
 * database. The shape is the one rate-limiter-flexible's PostgreSQL store reads and writes: `key`
 * is "<limit>:<caller>", `points` the requests counted in the window, `expire` its end (epoch ms).
 */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

/**
 * Leases (db/queries/leases.ts): one holder at a time for a key, across every process on the
 * database, e.g. `export:<user id>` while that person's account export is being written. A holder
 * renews its lease while it works; one that dies holds it at most until `expires_at`.
 */
export const leases = pgTable("leases", {
  key: text("key").primaryKey(),
  /** Who holds it: a random id per taking, so only the holder renews or releases it. */
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
