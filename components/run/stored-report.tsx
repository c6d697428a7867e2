import { createHash } from "node:crypto";
import type { Options } from "react-markdown";
import { markdownTree } from "../markdown";
import { ownerReportCitations, type ReportCitations } from "../report/citation-data";
import { drawnReport, keepDrawnReport } from "../report/drawn-reports";
import { StoredReportSlot } from "../report/stored-report-slot";
import { type ReportNames, reportNamesKey, useReportNames } from "../report/verdict";

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
  const key = drawStoredReport({
    markdown: run.report,
    question: run.question,
    partial: run.reportPartial,
    citations: ownerReportCitations(run),
    names: useReportNames(),
  });
  return (
    <StoredReportSlot
      drawnKey={key}
      markdownFrom={`/api/runs/${encodeURIComponent(run.id)}/report.md`}
      question={run.question}
      partial={run.reportPartial}
    />
  );
}

/**
 * Draws a stored report once (unless a tree drawn from the same inputs is kept) and returns the key
 * the slot draws it by. `remarkPlugins` and `keyParts`: a page's own steps (the share page's
 * redaction) and what they depend on, part of the key; so are the reader's language's `names` (the
 * markers' accessible names), so a German reader never gets a tree kept for an English one.
 */
export function drawStoredReport(input: {
  markdown: string;
  question: string;
  partial: boolean;
  citations: ReportCitations;
  names: ReportNames;
  remarkPlugins?: Options["remarkPlugins"];
  keyParts?: unknown;
}): string {
  const { markdown, question, partial, citations, names, remarkPlugins, keyParts } = input;
  const key = createHash("sha256")
    .update(JSON.stringify([markdown, question, partial, citations, reportNamesKey(names), keyParts ?? null]))
    .digest("base64url");
  if (drawnReport(key) === undefined) {
    const tree = markdownTree({ children: markdown, citations, question, partial, remarkPlugins, names });
    keepDrawnReport(key, tree, markdown.length);
  }
  return key;
}
