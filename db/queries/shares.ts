import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, or } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type Run, runs, type Share, shares } from "../schema.ts";

/** 32 random bytes, URL-safe: unguessable, so the link alone grants read access. */
export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What is stored for a token (and looked up by): its SHA-256, hex — the migration's SQL computes the same. */
export function shareTokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new share and its token; the token exists only in this return value, the row holds its hash. */
export async function createShare(
  db: Db,
  input: {
    runId: string;
    label: string | null;
    expiresAt: Date | null;
    allowDownload?: boolean;
    includeThread?: boolean;
  },
): Promise<{ share: Share; token: string }> {
  const token = newShareToken();
  const [share] = await db
    .insert(shares)
    .values({ ...input, tokenHash: shareTokenHash(token) })
    .returning();
  return { share, token };
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

/** Revokes a share once; a second revocation keeps the first time. */
export async function revokeShare(db: Db, shareId: string): Promise<void> {
  await db
    .update(shares)
    .set({ revokedAt: new Date() })
    .where(and(eq(shares.id, shareId), isNull(shares.revokedAt)));
}

/** The run behind a live token (known, not revoked, not expired at `now`), or nothing. */
export async function runForShareToken(db: Db, token: string, now: Date): Promise<Run | undefined> {
  return (await liveShareForToken(db, token, now))?.run;
}

/** The live share behind a token, with its run (known, not revoked, not expired at `now`), or nothing. */
export async function liveShareForToken(
  db: Db,
  token: string,
  now: Date,
): Promise<{ share: Share; run: Run } | undefined> {
  const [row] = await db
    .select({ share: shares, run: runs })
    .from(shares)
    .innerJoin(runs, eq(shares.runId, runs.id))
    .where(
      and(
        eq(shares.tokenHash, shareTokenHash(token)),
        isNull(shares.revokedAt),
        or(isNull(shares.expiresAt), gt(shares.expiresAt, now)),
      ),
    );
  return row;
}

/** A run's shares, oldest first. */
export async function listSharesForRun(db: Db, runId: string): Promise<Share[]> {
  return db.select().from(shares).where(eq(shares.runId, runId)).orderBy(asc(shares.createdAt));
}

/** Why a token opens nothing: never issued, revoked (wins over expiry) or expired at `now`; undefined while live. */
export async function deadShareState(
  db: Db,
  token: string,
  now: Date,
): Promise<"unknown" | "revoked" | "expired" | undefined> {
  const [row] = await db
    .select({ revokedAt: shares.revokedAt, expiresAt: shares.expiresAt })
    .from(shares)
    .where(eq(shares.tokenHash, shareTokenHash(token)));
  if (!row) return "unknown";
  if (row.revokedAt) return "revoked";
  if (row.expiresAt && row.expiresAt <= now) return "expired";
  return undefined;
}
