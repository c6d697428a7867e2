/** Account queries beyond better-auth's own: counting, adopting pre-account data, admins, invitations. */
import { and, count, desc, eq, gt, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import {
  invitations,
  knowledgeItems,
  libraryDocuments,
  runs,
  sessions,
  type User,
  users,
} from "../schema.ts";

/** The owner id every row had before accounts existed. */
export const LEGACY_LOCAL_OWNER = "local";

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export async function findUser(db: Db, id: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function listUsers(db: Db): Promise<User[]> {
  return db.select().from(users).orderBy(users.createdAt);
}

/** Ends every session of the account (better-auth reads sessions from this table on each request). */
export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Admins that can still sign in, other than `exceptId`: the last one may not be disabled or demoted. */
export async function countOtherActiveAdmins(db: Db, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.banned, false), ne(users.id, exceptId)));
  return row?.n ?? 0;
}

/**
 * The upgrade path: runs, knowledge and library documents made before accounts existed belong to the
 * single local owner; the first account takes them over so nobody loses their history. Idempotent.
 */
export async function adoptLegacyData(
  db: Db,
  userId: string,
): Promise<{ runs: number; knowledge: number; documents: number }> {
  return db.transaction(async (tx) => {
    const r = await tx
      .update(runs)
      .set({ ownerId: userId })
      .where(eq(runs.ownerId, LEGACY_LOCAL_OWNER))
      .returning({ id: runs.id });
    const k = await tx
      .update(knowledgeItems)
      .set({ ownerId: userId })
      .where(eq(knowledgeItems.ownerId, LEGACY_LOCAL_OWNER))
      .returning({ id: knowledgeItems.id });
    const d = await tx
      .update(libraryDocuments)
      .set({ ownerId: userId })
      .where(eq(libraryDocuments.ownerId, LEGACY_LOCAL_OWNER))
      .returning({ id: libraryDocuments.id });
    return { runs: r.length, knowledge: k.length, documents: d.length };
  });
}

export interface NewInvitation {
  tokenHash: string;
  email: string | null;
  createdBy: string;
  expiresAt: Date;
}

export async function insertInvitation(db: Db, input: NewInvitation) {
  const [row] = await db.insert(invitations).values(input).returning();
  return row;
}

export async function listInvitations(db: Db) {
  return db.select().from(invitations).orderBy(desc(invitations.createdAt)).limit(200);
}

export async function revokeInvitation(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.id, id), isNull(invitations.usedAt), isNull(invitations.revokedAt)))
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/**
 * Claims a live invitation for `email` in one statement, so two sign-ups cannot both use it.
 * Returns the claimed invitation's id, or null when there is no usable one.
 */
export async function claimInvitation(db: Db, tokenHash: string, email: string): Promise<string | null> {
  const rows = await db
    .update(invitations)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(invitations.tokenHash, tokenHash),
        isNull(invitations.usedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
        sql`(${invitations.email} is null or lower(${invitations.email}) = lower(${email}))`,
      ),
    )
    .returning({ id: invitations.id });
  return rows[0]?.id ?? null;
}

/** A claimed invitation whose sign-up then failed (e.g. the email was taken) is usable again. */
export async function releaseInvitation(db: Db, id: string): Promise<void> {
  await db
    .update(invitations)
    .set({ usedAt: null })
    .where(and(eq(invitations.id, id), isNull(invitations.usedBy)));
}

export async function markInvitationUsed(db: Db, id: string, userId: string): Promise<void> {
  await db.update(invitations).set({ usedBy: userId }).where(eq(invitations.id, id));
}

/** An invitation claimed by a sign-up that has not been bound to its new account yet. */
export async function findClaimedInvitation(db: Db, tokenHash: string): Promise<string | null> {
  const [row] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(eq(invitations.tokenHash, tokenHash), isNotNull(invitations.usedAt), isNull(invitations.usedBy)),
    );
  return row?.id ?? null;
}
