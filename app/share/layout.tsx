import type { ReactNode } from "react";

/** A shared report stands alone: no navigation into the owner's pages, which the recipient cannot use. */
export default function ShareLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-5xl px-6 py-4 text-lg font-semibold tracking-tight">Deep Research</div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-10">{children}</main>
    </>
  );
}
