/**
 * Who owns what a request reads or writes: the signed-in account. Route handlers call
 * currentOwner(req, scope) with the scope their operation needs (401 without a session or token,
 * 403 for a token outside that scope, a cross-site or non-JSON write, or a refused Host); pages
 * call pageOwner() (redirects to sign-in). Every query then filters by this id.
 */
import { type CallerOptions, type CallerScope, requireCaller } from "./auth/caller.ts";
import { pageCaller } from "./auth/page.ts";

export async function currentOwner(req: Request, scope: CallerScope, opts?: CallerOptions): Promise<string> {
  return (await requireCaller(req, scope, opts)).userId;
}

export async function pageOwner(): Promise<string> {
  return (await pageCaller()).userId;
}
