"use client";

import { useEffect, useRef, useState } from "react";
import { LazyMarkdown } from "../lazy-markdown";
import { useReportCitations } from "./citation-cards";
import { drawnReport } from "./drawn-reports";

/**
 * Where the stored report sits in the dashboard. On the server's HTML render it draws the tree the
 * server-component render kept (drawn-reports.ts); in the browser it keeps that HTML as it is (an
 * element whose inner HTML React leaves alone), so the page's data never carries the report. Shown
 * without a server render (a client-side navigation, or the tree was dropped meanwhile), it fetches
 * the report's Markdown and renders it here.
 */
export function StoredReportSlot({
  drawnKey,
  runId,
  question,
  partial,
}: {
  drawnKey: string;
  runId: string;
  question: string;
  partial: boolean;
}) {
  const onServer = typeof window === "undefined";
  const tree = onServer ? drawnReport(drawnKey) : undefined;
  const ref = useRef<HTMLDivElement>(null);
  const [markdown, setMarkdown] = useState<string | null>(null);
  const citations = useReportCitations();
  useEffect(() => {
    if (ref.current?.firstChild) return;
    fetch(`/api/runs/${encodeURIComponent(runId)}/report.md`, { headers: { accept: "text/markdown" } })
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
      .then(setMarkdown, () => setMarkdown(""));
  }, [runId]);
  if (markdown !== null) {
    return (
      <LazyMarkdown citations={citations} question={question} partial={partial}>
        {markdown}
      </LazyMarkdown>
    );
  }
  return onServer && tree !== undefined ? (
    <div ref={ref}>{tree}</div>
  ) : (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: empty on purpose: React keeps the server's HTML of the report
    <div ref={ref} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: "" }} />
  );
}
