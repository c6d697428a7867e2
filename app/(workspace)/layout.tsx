import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { UserMenu } from "@/components/account/user-menu";
import { LocaleSwitcher } from "@/components/locale-switcher";
import { NotificationsMenu } from "@/components/schedules/notifications-menu";

const links = [
  ["/", "runs"],
  ["/knowledge", "knowledge"],
  ["/library", "library"],
] as const;

/**
 * The owner's pages: their navigation. On wide screens the links and the account corner sit in
 * one row; on a phone the header is one short row, the brand and a menu that opens them.
 * Share pages live outside this group and never show it.
 */
export default function WorkspaceLayout({ children }: { children: ReactNode }) {
  const t = useTranslations("nav");
  const nav = (className: string) => (
    <nav aria-label={t("main")} className={className}>
      {links.map(([href, key]) => (
        <a key={href} href={href} className="hover:underline">
          {t(key)}
        </a>
      ))}
    </nav>
  );
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow dark:focus:bg-zinc-900"
      >
        {t("skip")}
      </a>
      <header className="relative border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-x-6 px-4 py-3 sm:px-6 sm:py-4">
          <a href="/" className="text-lg font-semibold tracking-tight">
            Deep Research
          </a>
          <div className="hidden items-center gap-x-6 sm:flex">
            {nav("flex items-center gap-4 text-sm")}
            <NotificationsMenu />
            <UserMenu />
            <LocaleSwitcher />
          </div>
          <details className="sm:hidden" data-testid="phone-menu">
            <summary className="cursor-pointer list-none rounded border border-zinc-300 px-3 py-1 text-sm dark:border-zinc-700">
              {t("menu")}
            </summary>
            <div className="absolute inset-x-0 top-full z-30 space-y-3 border-b border-zinc-200 bg-zinc-50 px-4 py-3 text-sm shadow dark:border-zinc-800 dark:bg-zinc-950">
              {nav("flex flex-col gap-2")}
              <NotificationsMenu />
              <UserMenu />
              <LocaleSwitcher />
            </div>
          </details>
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto max-w-5xl px-4 py-6 focus:outline-none sm:px-6 sm:py-10"
      >
        {children}
      </main>
    </>
  );
}
