import { Markdown } from "../markdown";
import { ownerReportCitations } from "../report/citation-data";

type StoredRun = Parameters<typeof ownerReportCitations>[0] & { question: string; report: string };

/**
 * The stored report, rendered once on the server (the run page hands it to the dashboard as a slot):
 * the browser hydrates the HTML and never parses a long report's Markdown itself. The same renderer,
 * with the same citations, as the dashboard's own for a draft, so both draw the same DOM.
 */
export function StoredReport({ run }: { run: StoredRun }) {
  return (
    <Markdown citations={ownerReportCitations(run)} question={run.question}>
      {run.report}
    </Markdown>
  );
}
