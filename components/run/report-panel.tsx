"use client";

import { type ReactNode, useMemo, useRef } from "react";
import { terminalRunStatuses } from "@/lib/research/ui";
import { FileExports } from "../exports/file-exports";
import { LazyMarkdown } from "../lazy-markdown";
import { ownerReportCitations } from "../report/citation-data";
import { CitationCardsContext } from "../report/citation-link";
import { ExportBar } from "../report/export-bar";
import { useReadingPosition } from "../report/use-reading-position";
import { SharePanel } from "./share-panel";
import type { RunViewJson } from "./types";

/**
 * The report (the stored one, or the text streamed so far) through one renderer in one container,
 * so the switch from draft to final keeps the reader's place; citations link to their source with
 * their verdict; export and sharing once the report is stored. `storedReport`: the stored report as
 * the server rendered it with the page (the same renderer); the browser renders only a report that
 * was not stored then (the draft, and the report stored while the page is open).
 */
export function ReportPanel({
  run,
  liveReport,
  storedReport,
}: {
  run: RunViewJson;
  liveReport: string;
  storedReport?: ReactNode;
}) {
  const report = run.report ?? liveReport;
  // Citation checks exist only for the stored report. With the server's rendering the view may come
  // without the report's Markdown (the page does not send it twice).
  const stored = Boolean(run.report || storedReport);
  const container = useRef<HTMLElement>(null);
  // The text changes (draft → stored report) and the page around it changes (the finished layout puts
  // the report first): either way the reader stays on the paragraph they were reading.
  useReadingPosition(
    container,
    `${stored ? "final" : "draft"}:${terminalRunStatuses.includes(run.status) ? "ended" : "live"}`,
  );
  // Each refresh of the run brings new arrays with the same content: key the citations by content,
  // so the rendered report (the costly part of a long one: parsing its Markdown) is kept.
  const citationsKey = useMemo(
    () => (stored ? JSON.stringify([run.citations, run.sources]) : ""),
    [stored, run.citations, run.sources],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by content (citationsKey), not identity
  const citations = useMemo(
    () => (stored ? ownerReportCitations(run) : undefined),
    [stored, citationsKey, run.id],
  );
  const rendered = useMemo(
    () =>
      stored && storedReport ? (
        // The server rendered its markers without their cards: they read them here.
        <CitationCardsContext.Provider value={citations}>{storedReport}</CitationCardsContext.Provider>
      ) : (
        <LazyMarkdown citations={citations} question={run.question}>
          {report}
        </LazyMarkdown>
      ),
    [stored, storedReport, citations, run.question, report],
  );
  if (!report && !stored) return null;
  const { reportPartial: partial, citationStats } = run;
  return (
    <>
      <section
        ref={container}
        aria-label="Report"
        data-print="report"
        aria-busy={!stored}
        className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
      >
        {stored && <ExportBar runId={run.id} markdown={run.report ?? undefined} />}
        {stored && (
          <FileExports
            runId={run.id}
            ended={terminalRunStatuses.includes(run.status)}
            importedFrom={run.importedFrom}
          />
        )}
        {!stored && (
          <p className="text-sm text-muted" data-print="hide">
            Draft: the report is being written.
          </p>
        )}
        {partial && (
          <p className="text-sm text-amber-700 dark:text-amber-400">
            This report is partial: research stopped before it was complete.
          </p>
        )}
        {citationStats && stored && (
          <p data-testid="citation-check" className="text-xs text-muted">
            Citations checked against the stored text of their sources: {citationStats.supported ?? 0}{" "}
            supported · {citationStats.partially_supported ?? 0} partly supported ·{" "}
            {citationStats.unsupported ?? 0} unsupported · {citationStats.unchecked ?? 0} unchecked
            {citationStats.removedUnknown
              ? ` · ${citationStats.removedUnknown} citation(s) to unknown sources removed`
              : ""}
          </p>
        )}
        {rendered}
      </section>
      {stored && <SharePanel runId={run.id} />}
    </>
  );
}
