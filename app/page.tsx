import { checkHealth } from "@/lib/server/health";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const health = await checkHealth();
  return (
    <div className="space-y-8">
      <section className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight">Ask a research question</h1>
        <p className="max-w-2xl text-zinc-600 dark:text-zinc-400">
          A supervisor agent writes a research brief, sends parallel researchers to search and read, checks
          what each part of the question is still missing, and writes a long report in which every citation
          points to a source that was really fetched and stored.
        </p>
      </section>
      <section
        aria-label="System status"
        className="rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900"
      >
        <h2 className="mb-2 font-medium">System status</h2>
        <p data-testid="database-status">
          Database:{" "}
          {health.database.ok
            ? `connected (${health.database.kind === "postgres" ? "PostgreSQL" : "embedded PGlite"})`
            : `unreachable — ${health.database.error}`}
        </p>
      </section>
    </div>
  );
}
