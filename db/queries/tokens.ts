import { and, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { TokenScope } from "../../lib/token-scopes.ts";
import type { Db } from "../client.ts";
import { type ApiToken, apiTokens, users } from "../schema.ts";

export async function insertApiToken(
  db: Db,
  values: {
    userId: string;
    name: string;
    scope: TokenScope;
    tokenHash: string;
    hint: string;
    expiresAt: Date;
    webhookUrl: string | null;
  },
): Promise<ApiToken> {
  const [row] = await db.insert(apiTokens).values(values).returning();
  return row;
}

export function listApiTokens(db: Db, userId: string): Promise<ApiToken[]> {
  return db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt));
}

export async function getApiToken(db: Db, id: string, userId: string): Promise<ApiToken | undefined> {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)));
  return row;
}

/** Revokes the owner's token; false when there is no such live token of theirs. */
export async function revokeApiToken(db: Db, id: string, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/** Revokes every live token of the person; the number revoked. */
export async function revokeAllApiTokens(db: Db, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length;
}

/** A live token (not revoked, not expired) with its owner, by the secret's hash. */
export async function findLiveToken(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(apiTokens.userId, users.id))
    .where(
      and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, now)),
    );
  return row;
}

/** Records use at most once a minute per token: a busy script should not write on every request. */
export async function touchApiToken(db: Db, id: string, now: Date): Promise<void> {
  const staleBefore = new Date(now.getTime() - 60_000);
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(
      and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore))),
    );
}
