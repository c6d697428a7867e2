/**
 * Who is asking: the account behind a request's session cookie or its personal API token
 * (`Authorization: Bearer drt_…`). Route handlers get it through requireCaller, naming the scope
 * their operation needs (401 without a credential; 403 for a token outside that scope; cookie-
 * authenticated state changes also pass the same-origin and Host checks); pages through pageCaller
 * (sessions only; redirects to sign-in).
 */
import { findLiveToken, touchApiToken } from "../../../db/queries/tokens.ts";
import type { UserRole } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { hashToken } from "../../secrets.ts";
import { serverRuntime } from "../runtime.ts";
import { getAuth } from "./instance.ts";
import { assertBody, assertSafeWrite, assertSameOrigin, type WriteBody } from "./same-origin.ts";
import { type OperationScope, scopeCovers, scopeRefusal, type TokenScope } from "./scopes.ts";

export interface Caller {
  userId: string;
  email: string;
  name: string;
  role: UserRole;
  /** How the request proved who it is; a token cannot do what needs a session (see requireCaller). */
  via: "session" | "token";
  /** The personal API token's id when via is "token" (its webhook URL applies to runs it starts). */
  tokenId?: string;
  /** What the token may do when via is "token" (lib/server/auth/scopes.ts). */
  scope?: TokenScope;
}

/** The bearer secret of an Authorization header, if the request carries one. */
export function bearerToken(headers: Headers): string | null {
  const value = headers.get("authorization");
  if (!value) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? match[1] : "";
}

// One session lookup per request: the route and its rate limit both ask for the caller.
const lookups = new WeakMap<Headers, Promise<Caller | null>>();

export function callerFromHeaders(headers: Headers): Promise<Caller | null> {
  let lookup = lookups.get(headers);
  if (!lookup) {
    lookup = lookupCaller(headers);
    lookups.set(headers, lookup);
  }
  return lookup;
}

async function lookupCaller(headers: Headers): Promise<Caller | null> {
  const bearer = bearerToken(headers);
  // A request that presents a token is judged by the token alone, never by a cookie beside it.
  if (bearer !== null) return bearer ? tokenCaller(bearer) : null;
  return sessionCaller(headers);
}

async function tokenCaller(secret: string): Promise<Caller | null> {
  const { handle } = await serverRuntime();
  const now = new Date();
  const found = await findLiveToken(handle.db, hashToken(secret), now);
  if (!found || found.user.banned) return null;
  // Last use is recorded at most once a minute: most requests of a busy script write nothing.
  const last = found.token.lastUsedAt?.getTime() ?? 0;
  if (now.getTime() - last > 60_000) await touchApiToken(handle.db, found.token.id, now);
  const { id, email, name, role } = found.user;
  const asRole = role === "admin" ? "admin" : "user";
  return {
    userId: id,
    email,
    name,
    role: asRole,
    via: "token",
    tokenId: found.token.id,
    scope: found.token.scope,
  };
}

async function sessionCaller(headers: Headers): Promise<Caller | null> {
  const auth = await getAuth();
  const found = await auth.api.getSession({ headers });
  if (!found || found.user.banned) return null;
  const { id, email, name, role } = found.user;
  return { userId: id, email, name, role: role === "admin" ? "admin" : "user", via: "session" };
}

/** Pages are for people in a browser: a session only, never a bearer token. */
export function sessionCallerFromHeaders(headers: Headers): Promise<Caller | null> {
  return bearerToken(headers) === null ? callerFromHeaders(headers) : sessionCaller(headers);
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export interface CallerOptions {
  /** What a state-changing request may carry as its body: JSON (default) or a multipart upload too. */
  body?: WriteBody;
  /** A session read that acts (a backup download): the same-origin and Host checks of a write. */
  sameOrigin?: boolean;
}

/** The operation's own scope: a signed-in person always passes; a token only within its scope. */
export type CallerScope = Exclude<OperationScope, "open">;

export async function requireCaller(
  req: Request,
  scope: CallerScope,
  opts: CallerOptions = {},
): Promise<Caller> {
  const caller = await authenticate(req, opts);
  assertScope(caller, scope);
  return caller;
}

/** An id-less admin area: to non-admins it is missing (404), like other people's things. */
export async function requireAdmin(
  req: Request,
  scope: "admin" | "session",
  opts: CallerOptions = {},
): Promise<Caller> {
  const caller = await authenticate(req, opts);
  if (caller.role !== "admin") throw new AppError("not_found", "Not found.");
  assertScope(caller, scope);
  return caller;
}

async function authenticate(req: Request, opts: CallerOptions): Promise<Caller> {
  const write = !safeMethods.has(req.method);
  const hasBearer = bearerToken(req.headers) !== null;
  // A bearer token is not sent by browsers on their own, so it cannot be forged cross-site: only
  // the body's media type is checked. Cookie writes must also come from our own origin and Host.
  if (write && hasBearer) assertBody(req, opts.body ?? "json");
  else if (write) assertSafeWrite(req, opts.body ?? "json");
  else if (opts.sameOrigin && !hasBearer) assertSameOrigin(req);
  const caller = await callerFromHeaders(req.headers);
  if (!caller) {
    throw new AppError(
      "unauthorized",
      hasBearer
        ? "The API token is not valid: it is unknown, revoked or expired."
        : "Sign in first: this needs an account session or an API token.",
    );
  }
  return caller;
}

export function assertScope(caller: Caller, needed: CallerScope): void {
  if (caller.via !== "token") return;
  const scope = caller.scope ?? "read";
  if (scopeCovers(scope, needed)) return;
  throw new AppError("forbidden", scopeRefusal(scope, needed), {
    details: { requiredScope: needed, tokenScope: scope },
  });
}
