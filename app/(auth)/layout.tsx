import { headers } from "next/headers";
import type { ReactNode } from "react";
import { AuthCard } from "@/components/account/form-parts";
import { refusedHostMessage, refusedHostname } from "@/lib/server/auth/hosts";

/**
 * First start, sign-in and sign-up: nobody is signed in yet, so there is no navigation to offer.
 * Reached through a Host this server does not answer for (a DNS-rebinding page, or a name the
 * operator has not listed), the forms are not offered: the page says which variable to set.
 */
export default async function AuthLayout({ children }: { children: ReactNode }) {
  const refused = refusedHostname(await headers());
  return (
    <>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-5xl px-6 py-4">
          <a href="/" className="text-lg font-semibold tracking-tight">
            Deep Research
          </a>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-10">
        {refused === null ? (
          children
        ) : (
          <AuthCard title="This address is not allowed here">
            <p className="text-sm" data-testid="refused-host">
              {refusedHostMessage(refused)}
            </p>
          </AuthCard>
        )}
      </main>
    </>
  );
}
