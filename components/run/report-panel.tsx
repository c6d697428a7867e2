"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, useMemo, useRef } from "react";
import { terminalRunStatuses } from "@/lib/research/ui";
import { FileExports } from "../exports/file-exports";
import { LazyMarkdown } from "../lazy-markdown";
import { CitationCards } from "../report/citation-cards";
import { ownerReportCitations } from "../report/citation-data";
import { ExportBar } from "../report/export-bar";
import { ReportContents } from "../report/report-contents";
import { useReadingPosition } from "../report/use-reading-position";
import { VerificationSummary } from "../report/verification-summary";
import { SharePanel } from "./share-panel";
import type { RunViewJson } from "./types";

/**
 * The report (the stored one, or the text streamed so far) through one renderer in one container,
 * so the switch from draft to final keeps the reader's place; its table of contents (beside it on
 * wide screens, a menu above it on narrow ones); one line on how its citations hold; citation cards;
 * export and sharing once the report is stored. `storedReport`: the stored report as the server
 * rendered it with the page (the same renderer); the browser renders only a report that was not
 * stored then (the draft, and the report stored while the page is open).
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
  const t = useTranslations("report");
  const report = run.report ?? liveReport;
  // Citation checks exist only for the stored report. With the server's rendering the view may come
  // without the report's Markdown (the page does not send it twice).
  const stored = Boolean(run.report || storedReport);
  const container = useRef<HTMLElement>(null);
  const version = `${stored ? "final" : "draft"}:${terminalRunStatuses.includes(run.status) ? "ended" : "live"}`;
  // The text changes (draft → stored report) and the page around it changes (the finished layout puts
  // the report first): either way the reader stays on the paragraph they were reading.
  useReadingPosition(container, version, stored && terminalRunStatuses.includes(run.status));
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
    () => (
      // One handler around the report opens its markers' cards (the server rendered plain markers).
      <CitationCards citations={citations}>
        {stored && storedReport ? (
          storedReport
        ) : (
          <LazyMarkdown citations={citations} question={run.question} partial={run.reportPartial}>
            {report}
          </LazyMarkdown>
        )}
      </CitationCards>
    ),
    [stored, storedReport, citations, run.question, run.reportPartial, report],
  );
  if (!report && !stored) return null;
  const { citationStats } = run;
  return (
    <>
      <div className="gap-8 lg:grid lg:grid-cols-[minmax(0,1fr)_13rem]">
        <section
          ref={container}
          aria-label={t("region")}
          data-print="report"
          aria-busy={!stored}
          className="min-w-0 space-y-4 rounded-lg border border-zinc-200 bg-white p-4 sm:p-6 dark:border-zinc-800 dark:bg-zinc-900"
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
              {t("draft")}
            </p>
          )}
          {citationStats && stored && <VerificationSummary stats={citationStats} container={container} />}
          <ReportContents container={container} version={version} placement="menu" />
          {rendered}
        </section>
        <ReportContents container={container} version={version} placement="side" />
      </div>
      {stored && <SharePanel runId={run.id} />}
    </>
  );
}
