/**
 * What each API operation needs, and what a personal API token's scope lets it do. Every route
 * handler names its operation's scope when it asks who the caller is (requireCaller), the OpenAPI
 * document carries the same word as `x-scope`, and test/token-scopes.test.ts calls every documented
 * operation with a token of each scope to check that the two agree.
 */
import { type TokenScope, tokenScopes } from "../../token-scopes.ts";

export { ADMIN_TOKEN_MAX_DAYS, TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS } from "../../token-scopes.ts";
export { type TokenScope, tokenScopes };

/**
 * A token scope; `session` — a signed-in person at a browser only, never a token (settings, users,
 * invitations, backups, creating tokens, deleting the account); `open` — no credential at all.
 */
export type OperationScope = TokenScope | "session" | "open";
export const operationScopes = [...tokenScopes, "session", "open"] as const satisfies OperationScope[];

/**
 * Whether a token of scope `token` may call an operation that needs `needed`. Reading is part of
 * every scope; `research` and `admin` do not include each other, and no token reaches `session`.
 */
export function scopeCovers(token: TokenScope, needed: OperationScope): boolean {
  if (needed === "open") return true;
  if (needed === "session") return false;
  return needed === "read" || token === needed;
}

export const scopeMeaning: Record<OperationScope, string> = {
  read: "reads only: nothing it does changes state",
  research: "the owner's runs (create, steer, cancel, finish, share, delete), library and knowledge",
  admin: "the read-only admin views (system status, accounts, audit log, metrics) of an admin's account",
  session: "a signed-in session only; no API token",
  open: "no credential",
};

/** The sentence a token outside its scope is refused with (HTTP 403 and MCP tools alike). */
export function scopeRefusal(token: TokenScope, needed: OperationScope, what = "This request"): string {
  if (needed === "session") {
    return `${what} needs a signed-in session; an API token cannot do it.`;
  }
  return `${what} needs a token with the ${needed} scope; this token's scope is ${token}. Create a ${needed} token on your account page.`;
}
