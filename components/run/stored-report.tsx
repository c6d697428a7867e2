import { createHash } from "node:crypto";
import { markdownTree } from "../markdown";
import { ownerReportCitations } from "../report/citation-data";
import { drawnReport, keepDrawnReport } from "../report/drawn-reports";
import { StoredReportSlot } from "../report/stored-report-slot";

type StoredRun = Parameters<typeof ownerReportCitations>[0] & {
  question: string;
  report: string;
  reportPartial: boolean;
};

/**
 * The stored report, rendered on the server (the run page hands it to the dashboard as a slot): the
 * browser keeps the server's HTML and never parses a long report's Markdown itself. The report is
 * drawn here (the same renderer, with the same citations, as the dashboard's own for a draft) and
 * kept by a key of everything it is drawn from; the page's data carries only that key, and the
 * slot's HTML render draws the kept tree — so the report is in the page once, as HTML. A stored
 * report does not change, and parsing 20 000 words of Markdown takes a few hundred ms: a kept tree
 * is drawn again without parsing (the caller has checked the reader's access).
 */
export function StoredReport({ run }: { run: StoredRun }) {
  // Only the markers' verdicts come from the citations: the cards open in the browser (CitationCards).
  const citations = ownerReportCitations(run);
  const key = createHash("sha256")
    .update(JSON.stringify([run.report, run.question, run.reportPartial, citations]))
    .digest("base64url");
  if (drawnReport(key) === undefined) {
    const tree = markdownTree({
      children: run.report,
      citations,
      question: run.question,
      partial: run.reportPartial,
    });
    keepDrawnReport(key, tree, run.report.length);
  }
  return (
    <StoredReportSlot drawnKey={key} runId={run.id} question={run.question} partial={run.reportPartial} />
  );
}
