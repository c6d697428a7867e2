/**
 * Who owns what a request reads or writes: the signed-in account. Route handlers call
 * currentOwner(req) (401 without a session, 403 for a cross-site or non-JSON write); pages call
 * pageOwner() (redirects to sign-in). Every query then filters by this id.
 */
import { type CallerOptions, requireCaller } from "./auth/caller.ts";
import { pageCaller } from "./auth/page.ts";

export async function currentOwner(req: Request, opts?: CallerOptions): Promise<string> {
  return (await requireCaller(req, opts)).userId;
}

export async function pageOwner(): Promise<string> {
  return (await pageCaller()).userId;
}
