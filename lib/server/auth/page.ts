/** Pages (server components) find the signed-in account from the request's cookies. */
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { countUsers } from "../../../db/queries/accounts.ts";
import { serverRuntime } from "../runtime.ts";
import { type Caller, sessionCallerFromHeaders } from "./caller.ts";
import { signInPath } from "./next-path.ts";

/** The signed-in account, or a redirect: to first-start setup on an empty instance, else to sign-in. */
export async function pageCaller(): Promise<Caller> {
  const requestHeaders = await headers();
  const caller = await sessionCallerFromHeaders(requestHeaders);
  if (caller) return caller;
  const { handle } = await serverRuntime();
  if ((await countUsers(handle.db)) === 0) redirect("/setup");
  redirect(signInPath(requestHeaders.get("x-request-path")));
}

export async function optionalPageCaller(): Promise<Caller | null> {
  return sessionCallerFromHeaders(await headers());
}

/** An admin page: to anyone else it does not exist (404), like other people's things. */
export async function pageAdmin(): Promise<Caller> {
  const caller = await pageCaller();
  if (caller.role !== "admin") notFound();
  return caller;
}
