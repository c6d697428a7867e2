import { NewRunForm } from "@/components/new-run-form";
import { SetupStatus } from "@/components/setup-status";
import { checkHealth } from "@/lib/server/health";
import { pageOwner } from "@/lib/server/owner";
import { listRunSummaries } from "@/lib/server/runs";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const health = await checkHealth();
  const recent = health.database.ok
    ? await listRunSummaries(await serverRuntime(), await pageOwner(), 20)
    : [];
  return (
    <div className="space-y-8">
      <section className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight">Ask a research question</h1>
        <p className="max-w-2xl text-muted">
          A supervisor agent writes a research brief, sends parallel researchers to search and read, checks
          what each part of the question is still missing, and writes a long report in which every citation
          points to a source that was really fetched and stored.
        </p>
        <NewRunForm disabled={!health.models.configured || !health.database.ok} />
      </section>
      <SetupStatus health={health} />
      {recent.length > 0 && (
        <section aria-label="Recent runs" className="space-y-2">
          <h2 className="text-lg font-medium">Recent runs</h2>
          <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            {recent.map((r) => (
              <li key={r.id} className="flex items-center justify-between gap-4 p-3 text-sm">
                <a href={`/runs/${r.id}`} className="truncate hover:underline">
                  {r.question}
                </a>
                <span className="shrink-0 rounded bg-zinc-100 px-2 py-0.5 text-xs dark:bg-zinc-800">
                  {r.status}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
