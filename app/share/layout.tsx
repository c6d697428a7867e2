import type { ReactNode } from "react";
import { LocaleSwitcher } from "@/components/locale-switcher";

/**
 * A shared report stands alone: no navigation into the owner's pages, which the recipient cannot
 * use. The language switcher is there: the page's words follow the recipient (the report keeps its
 * own language, whoever reads it).
 */
export default function ShareLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-6 py-4">
          <span className="text-lg font-semibold tracking-tight">Deep Research</span>
          <LocaleSwitcher />
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-10">{children}</main>
    </>
  );
}
