/**
 * Personal API tokens: a person creates one (name, optional expiry, optional webhook URL), sees it
 * once, and uses it as `Authorization: Bearer` on the API and MCP. Only its SHA-256 is stored; the
 * list shows name, dates and the last four characters, never the secret.
 */
import { z } from "zod";
import { getApiToken, insertApiToken, listApiTokens, revokeApiToken } from "../../db/queries/tokens.ts";
import type { ApiToken } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Runtime } from "../jobs/runtime.ts";
import { hashToken, newToken } from "../secrets.ts";

/** Every personal token starts with this, so secret scanners and people can recognise one. */
export const tokenPrefix = "drt_";

const DAY_MS = 24 * 60 * 60 * 1000;

export const createTokenSchema = z.strictObject({
  name: z.string().trim().min(1, "Give the token a name, e.g. the tool that will use it.").max(100),
  /** Days until the token stops working; absent: until revoked. */
  expiresInDays: z.int().min(1).max(3650).optional(),
  /** Runs started with this token post their terminal event here (signed; see the README). */
  webhookUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});
export type CreateTokenRequest = z.infer<typeof createTokenSchema>;

/** A token as its owner sees it in a list: never the secret, nor its hash. */
export const tokenViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  hint: z.string().describe("The secret's last four characters."),
  webhookUrl: z.string().nullable(),
  createdAt: z.date(),
  expiresAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
});
export type TokenView = z.infer<typeof tokenViewSchema>;

export function tokenView(t: ApiToken): TokenView {
  const { id, name, hint, webhookUrl, createdAt, expiresAt, lastUsedAt, revokedAt } = t;
  return { id, name, hint, webhookUrl, createdAt, expiresAt, lastUsedAt, revokedAt };
}

export async function createToken(
  rt: Runtime,
  userId: string,
  request: CreateTokenRequest,
  now = new Date(),
): Promise<{ token: TokenView; secret: string }> {
  const secret = newToken(tokenPrefix);
  const row = await insertApiToken(rt.handle.db, {
    userId,
    name: request.name,
    tokenHash: hashToken(secret),
    hint: secret.slice(-4),
    expiresAt: request.expiresInDays ? new Date(now.getTime() + request.expiresInDays * DAY_MS) : null,
    webhookUrl: request.webhookUrl ?? null,
  });
  return { token: tokenView(row), secret };
}

export async function listTokens(rt: Runtime, userId: string): Promise<TokenView[]> {
  return (await listApiTokens(rt.handle.db, userId)).map(tokenView);
}

/** Revokes one of the owner's tokens; someone else's id is not found (ids do not leak existence). */
export async function revokeToken(rt: Runtime, id: string, userId: string, now = new Date()): Promise<void> {
  if (await revokeApiToken(rt.handle.db, id, userId, now)) return;
  if (await getApiToken(rt.handle.db, id, userId)) return; // already revoked: nothing left to do
  throw new AppError("not_found", "No such token.");
}

export function tokenIdOrNotFound(raw: string): string {
  if (!z.uuid().safeParse(raw).success) throw new AppError("not_found", "No such token.");
  return raw;
}
