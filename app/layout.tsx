import type { Metadata } from "next";
import { connection } from "next/server";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { localeDirection } from "@/i18n/locale";
import { pageOnlyNamespaces, withoutNamespaces } from "@/i18n/page-messages";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("common");
  return {
    title: "Deep Research",
    description: t("appDescription"),
    icons: { icon: { url: "/icon.svg", type: "image/svg+xml" } },
  };
}

/**
 * The document around every page. Navigation belongs to the owner's pages ((workspace)/layout.tsx),
 * not here: a share link's recipient gets the report alone.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: the Content-Security-Policy nonce proxy.ts makes is applied to
  // Next's scripts while rendering, which a page prerendered at build time could not have.
  await connection();
  const locale = await getLocale();
  const messages = withoutNamespaces(await getMessages(), pageOnlyNamespaces);
  return (
    // Native controls (selects, checkboxes, scrollbars) follow the person's scheme too.
    <html lang={locale} dir={localeDirection(locale)} style={{ colorScheme: "light dark" }}>
      <body className="min-h-screen bg-zinc-50 text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {/* Client components read their words from the same messages the server uses (the run
            and admin pages' own namespaces are added by those pages). */}
        <NextIntlClientProvider messages={messages}>{children}</NextIntlClientProvider>
      </body>
    </html>
  );
}
