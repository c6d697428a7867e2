import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type Run, runs, type Share, shares } from "../schema.ts";

/** 32 random bytes, URL-safe: unguessable, so the link alone grants read access. */
export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

export async function createShare(db: Db, runId: string): Promise<Share> {
  const [row] = await db.insert(shares).values({ runId, token: newShareToken() }).returning();
  return row;
}

/** The share and its run when the share belongs to the owner (revocation is the owner's). */
export async function getShareForOwner(
  db: Db,
  shareId: string,
  ownerId: string,
): Promise<{ share: Share; run: Run } | undefined> {
  const [row] = await db
    .select({ share: shares, run: runs })
    .from(shares)
    .innerJoin(runs, eq(shares.runId, runs.id))
    .where(and(eq(shares.id, shareId), eq(runs.ownerId, ownerId)));
  return row;
}

export async function revokeShare(db: Db, shareId: string): Promise<void> {
  await db.update(shares).set({ revokedAt: new Date() }).where(eq(shares.id, shareId));
}

/** The run behind a live (not revoked) token, or nothing. */
export async function runForShareToken(db: Db, token: string): Promise<Run | undefined> {
  const [row] = await db
    .select({ run: runs })
    .from(shares)
    .innerJoin(runs, eq(shares.runId, runs.id))
    .where(and(eq(shares.token, token), isNull(shares.revokedAt)));
  return row?.run;
}

export async function listSharesForRun(db: Db, runId: string): Promise<Share[]> {
  return db.select().from(shares).where(eq(shares.runId, runId));
}
