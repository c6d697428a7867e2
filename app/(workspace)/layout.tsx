import type { ReactNode } from "react";
import { UserMenu } from "@/components/account/user-menu";

/** The owner's pages: their navigation. Share pages live outside this group and never show it. */
export default function WorkspaceLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow dark:focus:bg-zinc-900"
      >
        Skip to content
      </a>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-6 py-4">
          <a href="/" className="text-lg font-semibold tracking-tight">
            Deep Research
          </a>
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
            <nav aria-label="Main" className="flex items-center gap-4 text-sm">
              <a href="/" className="hover:underline">
                Runs
              </a>
              <a href="/knowledge" className="hover:underline">
                Knowledge
              </a>
              <a href="/library" className="hover:underline">
                Library
              </a>
            </nav>
            <UserMenu />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-5xl px-6 py-10 focus:outline-none">
        {children}
      </main>
    </>
  );
}
