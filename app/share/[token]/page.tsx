import { notFound } from "next/navigation";
import { Markdown } from "@/components/markdown";
import { serverRuntime } from "@/lib/server/runtime";
import { sharedReport } from "@/lib/server/shares";

export const dynamic = "force-dynamic";

/** The read-only shared report: no login, only a live token; a revoked token is simply not found. */
export default async function SharedReportPage({ params }: PageProps<"/share/[token]">) {
  const { token } = await params;
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) notFound();
  const shared = await sharedReport(await serverRuntime(), token);
  if (!shared) notFound();
  const { run, report } = shared;
  return (
    <article className="space-y-6">
      <header>
        <p className="text-sm text-zinc-500">Shared research report (read-only)</p>
        <h1 className="text-2xl font-semibold tracking-tight">{run.question}</h1>
      </header>
      {report ? (
        <div className="rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900">
          {report.partial && <p className="mb-4 text-sm text-amber-700">This report is partial.</p>}
          <Markdown>{report.markdown}</Markdown>
        </div>
      ) : (
        <p>This run has no report yet (status: {run.status}).</p>
      )}
    </article>
  );
}
