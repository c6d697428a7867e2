/**
 * Creating a personal API token (POST /api/tokens and the account page's form): a person creates one (name, scope, expiry, optional webhook URL), sees it
 * once, and uses it as `Authorization: Bearer` on the API and MCP. Only its SHA-256 is stored; the
 * list shows name, scope, dates and the last four characters, never the secret. A token does no
 * more than its scope allows and its owner may (lib/server/auth/scopes.ts), and always expires.
 */
import { z } from "zod";
import { insertApiToken } from "../../../db/queries/tokens.ts";
import type { UserRole } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { hashToken, newToken } from "../../secrets.ts";
import {
  ADMIN_TOKEN_MAX_DAYS,
  TOKEN_DEFAULT_DAYS,
  TOKEN_MAX_DAYS,
  type TokenScope,
  tokenScopes,
} from "../auth/scopes.ts";
import { type TokenView, tokenView } from "./view.ts";

/** Every personal token starts with this, so secret scanners and people can recognise one. */
export const tokenPrefix = "drt_";

const DAY_MS = 24 * 60 * 60 * 1000;

export const createTokenSchema = z.strictObject({
  name: z.string().trim().min(1, "Give the token a name, e.g. the tool that will use it.").max(100),
  scope: z
    .enum(tokenScopes)
    .default("research")
    .describe(
      "read: nothing that changes state; research (default): your runs, library and knowledge; admin (admins only): the read-only admin views.",
    ),
  /** Days until the token stops working: every token expires. */
  expiresInDays: z
    .int()
    .min(1)
    .max(TOKEN_MAX_DAYS, `A token lives at most ${TOKEN_MAX_DAYS} days.`)
    .default(TOKEN_DEFAULT_DAYS)
    .describe(
      `Days until it expires: 1–${TOKEN_MAX_DAYS}, ${ADMIN_TOKEN_MAX_DAYS} at most for admin; default ${TOKEN_DEFAULT_DAYS}.`,
    ),
  /** Runs started with this token post their terminal event here (signed; see the README). */
  webhookUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});
export type CreateTokenRequest = z.input<typeof createTokenSchema>;

/** The owner of a token, as far as minting it goes: an `admin` token needs an admin account. */
export interface TokenOwner {
  userId: string;
  role: UserRole;
}

export async function createToken(
  rt: Runtime,
  owner: TokenOwner,
  raw: CreateTokenRequest,
  now = new Date(),
): Promise<{ token: TokenView; secret: string }> {
  const request = createTokenSchema.parse(raw);
  assertTokenAllowed(owner, request.scope, request.expiresInDays);
  const secret = newToken(tokenPrefix);
  const row = await insertApiToken(rt.handle.db, {
    userId: owner.userId,
    name: request.name,
    scope: request.scope,
    tokenHash: hashToken(secret),
    hint: secret.slice(-4),
    expiresAt: new Date(now.getTime() + request.expiresInDays * DAY_MS),
    webhookUrl: request.webhookUrl ?? null,
  });
  return { token: tokenView(row), secret };
}

function assertTokenAllowed(owner: TokenOwner, scope: TokenScope, days: number): void {
  if (scope !== "admin") return;
  if (owner.role !== "admin") {
    throw new AppError("forbidden", "Only an admin can create a token with the admin scope.");
  }
  if (days > ADMIN_TOKEN_MAX_DAYS) {
    throw new AppError(
      "validation_failed",
      `An admin token lives at most ${ADMIN_TOKEN_MAX_DAYS} days: choose ${ADMIN_TOKEN_MAX_DAYS} or fewer.`,
    );
  }
}
