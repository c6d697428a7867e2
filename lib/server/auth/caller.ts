/**
 * Who is asking: the signed-in account behind a request's session cookie. Route handlers get it
 * through requireCaller (401 without a session; state changes also pass the same-origin check);
 * pages through pageCaller (redirects to sign-in).
 */
import type { UserRole } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { getAuth } from "./instance.ts";
import { assertSafeWrite, type WriteBody } from "./same-origin.ts";

export interface Caller {
  userId: string;
  email: string;
  name: string;
  role: UserRole;
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
  const auth = await getAuth();
  const found = await auth.api.getSession({ headers });
  if (!found || found.user.banned) return null;
  const { id, email, name, role } = found.user;
  return { userId: id, email, name, role: role === "admin" ? "admin" : "user" };
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export interface CallerOptions {
  /** What a state-changing request may carry as its body: JSON (default) or a multipart upload too. */
  body?: WriteBody;
}

export async function requireCaller(req: Request, opts: CallerOptions = {}): Promise<Caller> {
  if (!safeMethods.has(req.method)) assertSafeWrite(req, opts.body ?? "json");
  const caller = await callerFromHeaders(req.headers);
  if (!caller) throw new AppError("unauthorized", "Sign in first: this needs an account session.");
  return caller;
}

export async function requireAdmin(req: Request, opts: CallerOptions = {}): Promise<Caller> {
  const caller = await requireCaller(req, opts);
  // An id-less admin area: non-admins see it as missing, like other people's things.
  if (caller.role !== "admin") throw new AppError("not_found", "Not found.");
  return caller;
}
