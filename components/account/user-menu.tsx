/**
 * The header's account corner: who is signed in, links to their account (and the admin page for
 * admins) and Sign out — or a Sign in link. Kept in one component so the layout only places it.
 */
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { cache } from "react";
import { type Caller, sessionCallerFromHeaders } from "@/lib/server/auth/caller";
import { SignOutButton } from "./sign-out-button";

// Once per request: the header places the menu twice (inline on wide screens, in the phone menu).
const signedIn = cache(async (): Promise<Caller | null> => {
  // Outside the try: reading the request marks the page dynamic, which Next must see.
  const requestHeaders = await headers();
  try {
    return await sessionCallerFromHeaders(requestHeaders);
  } catch {
    // The database is unreachable: the page itself says so; the header just offers to sign in.
    return null;
  }
});

export async function UserMenu() {
  const [caller, t] = await Promise.all([signedIn(), getTranslations("accountMenu")]);
  if (!caller) {
    return (
      <a href="/sign-in" className="text-sm hover:underline">
        {t("signIn")}
      </a>
    );
  }
  return (
    <nav aria-label={t("label")} className="flex items-center gap-3 text-sm">
      <span className="max-w-40 truncate font-medium" title={caller.email}>
        {caller.name}
      </span>
      <a href="/account" className="hover:underline">
        {t("account")}
      </a>
      {caller.role === "admin" && (
        <a href="/admin" className="hover:underline">
          {t("admin")}
        </a>
      )}
      <SignOutButton />
    </nav>
  );
}
