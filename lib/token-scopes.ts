/**
 * The scopes of personal API tokens and how long tokens live: a vocabulary the database schema,
 * the server and the account page share (lib/server/auth/scopes.ts says what each scope covers).
 * `read`: nothing that changes state; `research`: the owner's runs, library and knowledge;
 * `admin`: the read-only admin views of an admin's account.
 */
export const tokenScopes = ["read", "research", "admin"] as const;
export type TokenScope = (typeof tokenScopes)[number];

/** Days a new token lives unless its maker says otherwise, and the most each scope may ask for. */
export const TOKEN_DEFAULT_DAYS = 90;
export const TOKEN_MAX_DAYS = 365;
export const ADMIN_TOKEN_MAX_DAYS = 90;
