import { createHash } from "node:crypto";
import type { ReactNode } from "react";
import { markdownTree } from "../markdown";
import { ownerReportCitations } from "../report/citation-data";

type StoredRun = Parameters<typeof ownerReportCitations>[0] & {
  question: string;
  report: string;
  reportPartial: boolean;
};

/** Stored reports drawn lately, newest last; bounded by their Markdown's total length. */
const drawn = new Map<string, { tree: ReactNode; chars: number }>();
const MAX_CHARS = 2_000_000;

/**
 * The stored report, rendered on the server (the run page hands it to the dashboard as a slot): the
 * browser hydrates the HTML and never parses a long report's Markdown itself. The same renderer,
 * with the same citations, as the dashboard's own for a draft, so both draw the same DOM.
 *
 * A stored report does not change, and parsing 20 000 words of Markdown takes a few hundred ms: the
 * tree is kept, keyed by everything it is drawn from (the caller has checked the reader's access).
 */
export function StoredReport({ run }: { run: StoredRun }) {
  // Only the markers' verdicts come from the citations: the cards open in the browser (CitationCards).
  const citations = ownerReportCitations(run);
  const key = createHash("sha256")
    .update(JSON.stringify([run.report, run.question, run.reportPartial, citations]))
    .digest("base64url");
  const kept = drawn.get(key);
  if (kept) {
    drawn.delete(key);
    drawn.set(key, kept);
    return kept.tree;
  }
  const tree = markdownTree({
    children: run.report,
    citations,
    question: run.question,
    partial: run.reportPartial,
  });
  keep(key, { tree, chars: run.report.length });
  return tree;
}

function keep(key: string, entry: { tree: ReactNode; chars: number }) {
  drawn.set(key, entry);
  let total = 0;
  for (const e of drawn.values()) total += e.chars;
  for (const [k, e] of drawn) {
    if (total <= MAX_CHARS || drawn.size === 1) break;
    drawn.delete(k);
    total -= e.chars;
  }
}
