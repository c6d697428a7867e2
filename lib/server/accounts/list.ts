/**
 * The admin's list of accounts (the admin page, GET /api/admin/users). Disabling, roles and
 * passwords change through better-auth's admin routes (/api/auth/admin/*).
 */
import { listUsers } from "../../../db/queries/accounts.ts";
import type { UserRole } from "../../../db/schema.ts";
import type { Runtime } from "../runtime.ts";

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
