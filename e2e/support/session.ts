/**
 * Accounts in e2e. Every app needs a session now: global-setup signs up the shared app's first
 * account (its admin) and saves the cookie as Playwright storage state, so every `page` and
 * `request` fixture is signed in. Raw fetches carry the cookie themselves, and specs that start
 * their own app sign up that app's first account here.
 */
import path from "node:path";

/** Where global-setup writes the shared app's signed-in storage state (read by playwright.config.ts). */
export const storageStatePath = path.resolve(
  import.meta.dirname,
  "..",
  "..",
  ".reports",
  "e2e-auth-state.json",
);

/** A browser context or request context that carries no session at all. */
export const signedOut = { cookies: [], origins: [] };

export const E2E_PASSWORD = "e2e-password-0123";

/** An app and the Cookie header of an account signed in to it. */
export interface AppSession {
  url: string;
  cookie: string;
}

/** A cookie as Playwright's storage state and addCookies take it. */
export interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Lax" | "Strict" | "None";
}

export interface SignedUp extends AppSession {
  cookies: BrowserCookie[];
}

/** The shared app (global-setup) with its admin's session. */
export function sharedApp(): AppSession {
  const url = process.env.E2E_BASE_URL;
  const cookie = process.env.E2E_COOKIE;
  if (!url || !cookie) throw new Error("global-setup did not sign in to the shared app");
  return { url, cookie };
}

/** Headers for a raw fetch as the signed-in account of `app`. */
export const sessionHeaders = (app: AppSession, extra: Record<string, string> = {}) => ({
  cookie: app.cookie,
  ...extra,
});

/** Signs up through better-auth on `url` (the first account of an empty app becomes its admin). */
export async function signUp(
  url: string,
  who: { email: string; name: string; password?: string; invite?: string } = {
    email: "admin@e2e.test",
    name: "E2E Admin",
  },
): Promise<SignedUp> {
  const r = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ password: E2E_PASSWORD, ...who }),
  });
  if (!r.ok) throw new Error(`sign-up of ${who.email} on ${url} failed: ${r.status} ${await r.text()}`);
  const cookies = r.headers.getSetCookie().map((c) => toBrowserCookie(c, new URL(url).hostname));
  if (!cookies.some((c) => c.name.includes("session_token"))) {
    throw new Error(`sign-up on ${url} set no session cookie`);
  }
  return { url, cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "), cookies };
}

function toBrowserCookie(setCookie: string, domain: string): BrowserCookie {
  const [pair, ...attributes] = setCookie.split(";").map((s) => s.trim());
  const eq = pair.indexOf("=");
  const attr = (name: string) =>
    attributes.find((a) => a.toLowerCase().startsWith(`${name.toLowerCase()}=`))?.split("=")[1];
  const maxAge = Number(attr("Max-Age") ?? 86_400);
  const sameSite = (attr("SameSite") ?? "Lax").toLowerCase();
  return {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    domain,
    path: attr("Path") ?? "/",
    expires: Math.floor(Date.now() / 1000) + maxAge,
    httpOnly: attributes.some((a) => a.toLowerCase() === "httponly"),
    secure: attributes.some((a) => a.toLowerCase() === "secure"),
    sameSite: sameSite === "strict" ? "Strict" : sameSite === "none" ? "None" : "Lax",
  };
}
