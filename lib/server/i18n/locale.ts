/**
 * The UI language of a request and the switcher's choice. i18n/request.ts asks `requestLocale` for
 * every render; the switcher's server action calls `chooseLocale`. A signed-in person's choice is
 * saved on their account (it follows them to another browser), and the cookie keeps it for pages
 * before sign-in.
 */
import { cookies, headers } from "next/headers";
import { z } from "zod";
import { findUserLocale, saveUserLocale } from "../../../db/queries/user-locale.ts";
import { type Locale, localeCookie, locales, resolveLocale } from "../../../i18n/locale.ts";
import { sessionCallerFromHeaders } from "../auth/caller.ts";
import { assertAllowedHost } from "../auth/hosts.ts";
import { sameSitePath } from "../auth/next-path.ts";
import { serverRuntime } from "../runtime.ts";

/** How long the switcher's cookie lasts: a year, renewed by every choice. */
const cookieMaxAge = 365 * 24 * 3600;

async function savedLocale(requestHeaders: Headers): Promise<string | null> {
  try {
    const caller = await sessionCallerFromHeaders(requestHeaders);
    if (!caller) return null;
    const { handle } = await serverRuntime();
    return await findUserLocale(handle.db, caller.userId);
  } catch {
    // The database is unreachable: the page says so itself, in the browser's language.
    return null;
  }
}

export async function requestLocale(): Promise<Locale> {
  const requestHeaders = await headers();
  const cookie = (await cookies()).get(localeCookie)?.value;
  return resolveLocale({
    saved: await savedLocale(requestHeaders),
    cookie,
    acceptLanguage: requestHeaders.get("accept-language"),
  });
}

export const chooseLocaleSchema = z.object({ locale: z.enum(locales), next: z.string().optional() });

/**
 * Keeps a choice from the switcher: in the cookie always, on the account when someone is signed in.
 * Answers the same-site path to go back to.
 */
export async function chooseLocale(input: z.output<typeof chooseLocaleSchema>): Promise<string> {
  const requestHeaders = await headers();
  assertAllowedHost(requestHeaders);
  (await cookies()).set(localeCookie, input.locale, {
    path: "/",
    maxAge: cookieMaxAge,
    sameSite: "lax",
    httpOnly: true,
  });
  const caller = await sessionCallerFromHeaders(requestHeaders);
  if (caller) {
    const { handle } = await serverRuntime();
    await saveUserLocale(handle.db, caller.userId, input.locale);
  }
  return sameSitePath(input.next);
}
