/**
 * What the sign-in, sign-up and setup pages show: whether anyone has an account yet and how sign-up
 * works here. Changes to accounts go through better-auth's own routes (/api/auth/*); the admin's
 * list of accounts is list.ts.
 */
import { countUsers } from "../../../db/queries/accounts.ts";
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
