import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { AuthCard } from "@/components/account/form-parts";
import { LocaleSwitcher } from "@/components/locale-switcher";
import { refusedHostMessage, refusedHostname } from "@/lib/server/auth/hosts";

/**
 * First start, sign-in and sign-up: nobody is signed in yet, so there is no navigation to offer.
 * Reached through a Host this server does not answer for (a DNS-rebinding page, or a name the
 * operator has not listed), the forms are not offered: the page says which variable to set.
 */
export default async function AuthLayout({ children }: { children: ReactNode }) {
  const refused = refusedHostname(await headers());
  const t = await getTranslations("auth");
  return (
    <>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-6 py-4">
          <a href="/" className="text-lg font-semibold tracking-tight">
            Deep Research
          </a>
          <LocaleSwitcher />
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-10">
        {refused === null ? (
          children
        ) : (
          <AuthCard title={t("refusedHost")}>
            <p className="text-sm" data-testid="refused-host">
              {refusedHostMessage(refused)}
            </p>
          </AuthCard>
        )}
      </main>
    </>
  );
}
