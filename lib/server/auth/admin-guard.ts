/**
 * Which of better-auth's admin endpoints this app offers, and the rule they must keep: there is
 * always at least one admin who can sign in. Impersonation and the rest are refused — an admin
 * manages accounts but does not read other people's research.
 */
import { APIError } from "better-auth/api";
import type { Db } from "../../../db/client.ts";
import { countOtherActiveAdmins, findUser } from "../../../db/queries/accounts.ts";

const offered = new Set([
  "/admin/list-users",
  "/admin/ban-user",
  "/admin/unban-user",
  "/admin/set-role",
  "/admin/set-user-password",
  "/admin/revoke-user-sessions",
]);

/** Endpoints that could leave the instance without an admin who can sign in. */
const removesAnAdmin = (path: string, body: { role?: unknown }) =>
  path === "/admin/ban-user" || (path === "/admin/set-role" && body.role !== "admin");

export async function guardAdminAction(db: Db, path: string, rawBody: unknown): Promise<void> {
  if (!offered.has(path)) throw new APIError("NOT_FOUND", { message: "Not found." });
  const body = (rawBody && typeof rawBody === "object" ? rawBody : {}) as {
    userId?: unknown;
    role?: unknown;
  };
  if (!removesAnAdmin(path, body) || typeof body.userId !== "string") return;
  const target = await findUser(db, body.userId);
  if (target?.role === "admin" && (await countOtherActiveAdmins(db, target.id)) === 0) {
    throw new APIError("BAD_REQUEST", {
      code: "LAST_ADMIN",
      message: "This is the last admin account: make another account admin first.",
    });
  }
}
