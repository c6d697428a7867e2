/**
 * Who is calling a server action: the signed-in account from the request's cookies. Next.js checks
 * a server action's origin itself (design §5), so no same-origin check is repeated here, but the
 * Host must be one this server answers for (a DNS-rebinding page passes Next.js's check: its Origin
 * and Host agree). A limited action counts against the same per-user limit as its route handler.
 */
import { headers } from "next/headers";
import { AppError } from "../../errors.ts";
import { type Caller, sessionCallerFromHeaders } from "../auth/caller.ts";
import { assertAllowedHost } from "../auth/hosts.ts";
import { consumeRateLimit, type RateLimitName } from "../rate-limits.ts";
import { serverRuntime } from "../runtime.ts";

export async function actionCaller(limit?: RateLimitName): Promise<Caller> {
  const requestHeaders = await headers();
  assertAllowedHost(requestHeaders);
  const caller = await sessionCallerFromHeaders(requestHeaders);
  if (!caller) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
  if (limit) {
    const rt = await serverRuntime();
    await consumeRateLimit(rt.handle, limit, `user:${caller.userId}`);
  }
  return caller;
}
