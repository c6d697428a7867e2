import type { ReactNode } from "react";

/** The owner's pages: their navigation. Share pages live outside this group and never show it. */
export default function WorkspaceLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-6 py-4">
          <a href="/" className="text-lg font-semibold tracking-tight">
            Deep Research
          </a>
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
            <a href="/api/health" className="text-zinc-500 hover:underline">
              status
            </a>
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-10">{children}</main>
    </>
  );
}
