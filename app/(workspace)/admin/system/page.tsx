import type { Metadata } from "next";
import Link from "next/link";
import {
  ActiveRunsTable,
  CostPanel,
  FailuresTable,
  ModelErrorsTable,
} from "@/components/admin/system-panels";
import { pageAdmin } from "@/lib/server/auth/page";
import { systemOverview } from "@/lib/server/operations/system";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "System · Deep Research" };

/** Admins only; to anyone else the page does not exist. */
export default async function SystemPage() {
  await pageAdmin();
  const overview = await systemOverview(await serverRuntime());
  const sections = [
    {
      id: "system-runs",
      title: "Runs in progress and waiting",
      body: <ActiveRunsTable runs={overview.runs} />,
    },
    { id: "system-failures", title: "Recent failures", body: <FailuresTable failures={overview.failures} /> },
    {
      id: "system-models",
      title: "Model errors (last 30 days)",
      body: (
        <>
          <p className="max-w-2xl text-sm text-muted">
            A retried call is one that failed (rate limit, server error or no answer) and was tried again; the
            error rate is retried calls out of all attempts.
          </p>
          <ModelErrorsTable models={overview.models} />
        </>
      ),
    },
    { id: "system-cost", title: "Cost per day", body: <CostPanel overview={overview} /> },
  ];
  return (
    <div className="space-y-10">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">System</h1>
        <p className="max-w-2xl text-muted">
          Every account&apos;s runs as counts, states and accounts, from the database, so the figures cover
          all web and worker processes. What people ask and find stays theirs: no question or report is shown
          here.{" "}
          <Link href="/admin" className="underline">
            Back to accounts
          </Link>
        </p>
      </section>
      {sections.map((s) => (
        <section key={s.id} aria-labelledby={s.id} className="space-y-3">
          <h2 id={s.id} className="text-lg font-medium">
            {s.title}
          </h2>
          {s.body}
        </section>
      ))}
    </div>
  );
}
