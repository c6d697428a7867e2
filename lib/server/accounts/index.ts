/**
 * What the account pages show: whether anyone has an account yet, how sign-up works here, and the
 * admin's list of accounts. Changes to accounts go through better-auth's own routes (/api/auth/*).
 */
import { countUsers, listUsers } from "../../../db/queries/accounts.ts";
import type { UserRole } from "../../../db/schema.ts";
import { type SignupMode, signupMode } from "../auth/settings.ts";
import type { Runtime } from "../runtime.ts";

export async function accountsExist(rt: Runtime): Promise<boolean> {
  return (await countUsers(rt.handle.db)) > 0;
}

export interface SignupStatus {
  /** SIGNUP: invite (default), open or closed. */
  mode: SignupMode;
  /** No account exists yet: the next sign-up is the first-start admin, whatever the mode. */
  firstAccount: boolean;
}

export async function signupStatus(rt: Runtime, env = process.env): Promise<SignupStatus> {
  return { mode: signupMode(env), firstAccount: !(await accountsExist(rt)) };
}

/** One account as the admin page lists it: never its password, sessions or anything it owns. */
export interface AccountView {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  /** better-auth calls a disabled account "banned". */
  disabled: boolean;
  createdAt: string;
}

export async function listAccounts(rt: Runtime): Promise<AccountView[]> {
  return (await listUsers(rt.handle.db)).map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role === "admin" ? "admin" : "user",
    disabled: u.banned,
    createdAt: u.createdAt.toISOString(),
  }));
}
