import { ImportBundleForm } from "@/components/exports/import-bundle-form";
import { RecentRuns } from "@/components/home/recent-runs";
import { NewRunForm } from "@/components/new-run-form";
import { SetupStatus } from "@/components/setup-status";
import { checkHealth } from "@/lib/server/health";
import { pageOwner } from "@/lib/server/owner";
import { runFormOptions } from "@/lib/server/runs/form";
import { listRunSummaries } from "@/lib/server/runs/view";
import { serverRuntime } from "@/lib/server/runtime";
import { serverEffectiveEnv } from "@/lib/server/settings/effective";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: PageProps<"/">) {
  const params = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const query = first(params.q)?.trim().slice(0, 200) ?? "";
  // "Edit question" on a run's page comes back here with the question to start from.
  const question = first(params.question)?.slice(0, 4000) ?? "";
  const health = await checkHealth();
  const options = runFormOptions(health.database.ok ? await serverEffectiveEnv() : process.env);
  const recent = health.database.ok
    ? await listRunSummaries(await serverRuntime(), await pageOwner(), 20, { query })
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
        <SetupStatus health={health} searchProblem={options.searchProblem} />
        <NewRunForm
          disabled={!health.models.configured || !health.database.ok}
          options={options}
          initialQuestion={question}
        />
      </section>
      <RecentRuns runs={recent} query={query} />
      {health.database.ok && <ImportBundleForm />}
    </div>
  );
}
