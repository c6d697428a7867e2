/**
 * The /api/auth/* route: better-auth answers with its own shapes. Its rate limiter says when to retry
 * in X-Retry-After; the standard Retry-After is added so every 429 of the app reads the same way.
 * Every POST (sign-up, sign-in, password changes, the admin's actions) must come through a Host this
 * server answers for (hosts.ts): a DNS-rebinding page must not create the first admin of an empty
 * instance. A misconfiguration (e.g. AUTH_SECRET missing) is a clear JSON error.
 */
import { errorResponse } from "../../http.ts";
import { assertAllowedHost } from "./hosts.ts";
import { getAuth } from "./instance.ts";

export async function authHandler(req: Request): Promise<Response> {
  try {
    if (req.method !== "GET" && req.method !== "HEAD") assertAllowedHost(req.headers, req.url);
    const res = await (await getAuth()).handler(req);
    const retryAfter = res.headers.get("x-retry-after");
    if (res.status === 429 && retryAfter && !res.headers.has("retry-after")) {
      const headers = new Headers(res.headers);
      headers.set("retry-after", retryAfter);
      return new Response(res.body, { status: 429, statusText: res.statusText, headers });
    }
    return res;
  } catch (e) {
    return errorResponse(e);
  }
}
