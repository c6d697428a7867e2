/**
 * Leases: "one at a time" across every process that shares the database, without holding a
 * connection (an advisory lock would pin one for as long as it is held, and embedded PGlite has only
 * one session, in which such a lock is always granted again). A lease is a row: taken when it is
 * absent or expired, kept alive by renewing it, released by deleting it. A holder that dies without
 * releasing holds it at most until it expires.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { leases } from "../schema.ts";

/** Takes the lease `key` for `holder` for `ttlMs`; false while someone else holds it. */
export async function takeLease(db: Db, key: string, holder: string, ttlMs: number): Promise<boolean> {
  const expiresAt = sql`now() + ${`${ttlMs} milliseconds`}::interval`;
  const rows = await db
    .insert(leases)
    .values({ key, holder, expiresAt })
    .onConflictDoUpdate({
      target: leases.key,
      set: { holder, expiresAt },
      setWhere: lt(leases.expiresAt, sql`now()`),
    })
    .returning({ key: leases.key });
  return rows.length > 0;
}

/** Extends the holder's lease by `ttlMs` from now; false when it is no longer theirs. */
export async function renewLease(db: Db, key: string, holder: string, ttlMs: number): Promise<boolean> {
  const rows = await db
    .update(leases)
    .set({ expiresAt: sql`now() + ${`${ttlMs} milliseconds`}::interval` })
    .where(and(eq(leases.key, key), eq(leases.holder, holder)))
    .returning({ key: leases.key });
  return rows.length > 0;
}

/** Gives the lease back (only the holder's own). */
export async function releaseLease(db: Db, key: string, holder: string): Promise<void> {
  await db.delete(leases).where(and(eq(leases.key, key), eq(leases.holder, holder)));
}
