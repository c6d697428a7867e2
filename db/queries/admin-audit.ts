/** The admins' audit log (backups, password resets) and the password resets an owner sees. */
import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
  type AdminAuditEntry,
  adminAuditLog,
  type PasswordReset,
  passwordResets,
  type ResetSignIn,
  resetSignIns,
} from "../schema.ts";

export type NewAuditEntry = Omit<typeof adminAuditLog.$inferInsert, "id" | "createdAt">;

export async function insertAuditEntry(db: Db, entry: NewAuditEntry): Promise<AdminAuditEntry> {
  const [row] = await db.insert(adminAuditLog).values(entry).returning();
  return row;
}

export function listAuditEntries(db: Db, limit = 200): Promise<AdminAuditEntry[]> {
  return db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.createdAt)).limit(limit);
}

export interface ResetBy {
  id: string;
  name: string;
  email: string;
}

/** A new temporary password for `userId`: any reset still open ends here, replaced by this one. */
export async function openPasswordReset(db: Db, userId: string, admin: ResetBy, now: Date) {
  return db.transaction(async (tx) => {
    await tx
      .update(passwordResets)
      .set({ endedAt: now, endReason: "reset_again" })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.endedAt)));
    const [row] = await tx
      .insert(passwordResets)
      .values({
        userId,
        resetById: admin.id,
        resetByName: admin.name,
        resetByEmail: admin.email,
        createdAt: now,
      })
      .returning();
    return row;
  });
}

/** The owner set their own password: the temporary one is over. */
export async function endPasswordResets(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(passwordResets)
    .set({ endedAt: now, endReason: "owner_changed" })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.endedAt)));
}

/** Records a sign-in against the account's open reset; nothing when its password is its owner's own. */
export async function recordResetSignIn(
  db: Db,
  userId: string,
  seen: { ipAddress: string | null; userAgent: string | null },
): Promise<void> {
  const [open] = await db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.endedAt)))
    .orderBy(desc(passwordResets.createdAt))
    .limit(1);
  if (open) await db.insert(resetSignIns).values({ resetId: open.id, ...seen });
}

export interface ResetWithSignIns extends PasswordReset {
  signIns: ResetSignIn[];
}

/** Every reset of the account, newest first, each with its sign-ins in order. */
export async function listPasswordResets(db: Db, userId: string): Promise<ResetWithSignIns[]> {
  const resets = await db
    .select()
    .from(passwordResets)
    .where(eq(passwordResets.userId, userId))
    .orderBy(desc(passwordResets.createdAt));
  if (resets.length === 0) return [];
  const signIns = await db
    .select()
    .from(resetSignIns)
    .where(
      inArray(
        resetSignIns.resetId,
        resets.map((r) => r.id),
      ),
    )
    .orderBy(asc(resetSignIns.createdAt));
  return resets.map((r) => ({ ...r, signIns: signIns.filter((s) => s.resetId === r.id) }));
}
