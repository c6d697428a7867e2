/** A personal API token as its owner sees it (the account page, GET /api/tokens). */
import { z } from "zod";
import type { ApiToken } from "../../../db/schema.ts";
import { tokenScopes } from "../auth/scopes.ts";

/** A token as its owner sees it in a list: never the secret, nor its hash. */
export const tokenViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  hint: z.string().describe("The secret's last four characters."),
  scope: z.enum(tokenScopes),
  scopeFromUpgrade: z
    .boolean()
    .describe("Made before tokens had scopes: the upgrade gave it `research` and an expiry 90 days later."),
  webhookUrl: z.string().nullable(),
  createdAt: z.date(),
  expiresAt: z.date(),
  lastUsedAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
});
export type TokenView = z.infer<typeof tokenViewSchema>;

export function tokenView(t: ApiToken): TokenView {
  const { id, name, hint, scope, scopeFromUpgrade, webhookUrl, createdAt, expiresAt, lastUsedAt, revokedAt } =
    t;
  return { id, name, hint, scope, scopeFromUpgrade, webhookUrl, createdAt, expiresAt, lastUsedAt, revokedAt };
}
