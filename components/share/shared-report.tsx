import type { SharedReport } from "@/lib/server/shares";
import { Markdown } from "../markdown";
import { remarkRedactPrivateSources } from "./redact-private-sources";

/**
 * The read-only report behind a share link: the question and the report, nothing else of the run.
 * A server component on purpose: the report is redacted while rendering, so neither the private
 * sources' URLs nor their titles ever reach the recipient's browser.
 */
export function SharedReportView({ shared }: { shared: SharedReport }) {
  const { question, status, report, privateSourceUrls } = shared;
  return (
    <article className="space-y-6">
      <header>
        <p className="text-sm text-muted">Shared research report (read-only)</p>
        <h1 className="text-2xl font-semibold tracking-tight">{question}</h1>
      </header>
      {report ? (
        <div className="rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900">
          {report.partial && <p className="mb-4 text-sm text-amber-700">This report is partial.</p>}
          <Markdown remarkPlugins={[[remarkRedactPrivateSources, { privateUrls: privateSourceUrls }]]}>
            {report.markdown}
          </Markdown>
        </div>
      ) : (
        <p>This run has no report yet (status: {status}).</p>
      )}
    </article>
  );
}
