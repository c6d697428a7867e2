import { Markdown } from "../markdown";
import { SharePanel } from "./share-panel";
import type { RunViewJson } from "./types";

/** The report (the stored one, or the text streamed so far), how its citations were checked, and sharing. */
export function ReportPanel({ run, liveReport }: { run: RunViewJson; liveReport: string }) {
  const report = run.report ?? liveReport;
  if (!report) return null;
  // Citation checks exist only for the stored report.
  const stored = Boolean(run.report);
  const { reportPartial: partial, citationStats } = run;
  return (
    <>
      <section
        aria-label="Report"
        className="rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
      >
        {partial && <p className="mb-4 text-sm text-amber-700">This report is partial.</p>}
        {citationStats && stored && (
          <p data-testid="citation-check" className="mb-4 text-xs text-muted">
            Citations checked against the stored text of their sources: {citationStats.supported ?? 0}{" "}
            supported · {citationStats.partially_supported ?? 0} partly supported ·{" "}
            {citationStats.unsupported ?? 0} unsupported · {citationStats.unchecked ?? 0} unchecked
            {citationStats.removedUnknown
              ? ` · ${citationStats.removedUnknown} citation(s) to unknown sources removed`
              : ""}
          </p>
        )}
        <Markdown>{report}</Markdown>
      </section>
      {stored && <SharePanel runId={run.id} />}
    </>
  );
}
