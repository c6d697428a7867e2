import type { ReactNode } from "react";

/** First start, sign-in and sign-up: nobody is signed in yet, so there is no navigation to offer. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-5xl px-6 py-4">
          <a href="/" className="text-lg font-semibold tracking-tight">
            Deep Research
          </a>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-10">{children}</main>
    </>
  );
}
