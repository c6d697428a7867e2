"use client";

import { useEffect, useRef, useState } from "react";
import { LazyMarkdown } from "../lazy-markdown";
import { useReportCitations } from "./citation-cards";
import { drawnReport } from "./drawn-reports";

/** The report's HTML as the server drew it into this page's document, read again from a fresh copy. */
async function reportHtmlOfPage(): Promise<string> {
  const r = await fetch(window.location.href, { headers: { accept: "text/html" }, cache: "no-store" });
  if (!r.ok) throw new Error(String(r.status));
  const doc = new DOMParser().parseFromString(await r.text(), "text/html");
  return doc.querySelector("[data-stored-report]")?.innerHTML ?? "";
}

/**
 * Where a stored report sits in its page. On the server's HTML render it draws the tree the
 * server-component render kept (drawn-reports.ts); in the browser it keeps that HTML as it is (an
 * element whose inner HTML React leaves alone), so the page's data never carries the report. Shown
 * without a server render (a client-side navigation, or the tree was dropped meanwhile), it fetches
 * the report's Markdown (`markdownFrom`, the owner's) and renders it here; a page without such a
 * source (the share page, whose redaction happens only on the server) reads the report's HTML from
 * a fresh copy of itself instead.
 */
export function StoredReportSlot({
  drawnKey,
  markdownFrom,
  question,
  partial,
}: {
  drawnKey: string;
  markdownFrom?: string;
  question: string;
  partial: boolean;
}) {
  const onServer = typeof window === "undefined";
  const tree = onServer ? drawnReport(drawnKey) : undefined;
  const ref = useRef<HTMLDivElement>(null);
  const [markdown, setMarkdown] = useState<string | null>(null);
  const [html, setHtml] = useState<string | null>(null);
  const citations = useReportCitations();
  useEffect(() => {
    if (ref.current?.firstChild) return;
    if (!markdownFrom) {
      reportHtmlOfPage().then(setHtml, () => setHtml(""));
      return;
    }
    fetch(markdownFrom, { headers: { accept: "text/markdown" } })
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
      .then(setMarkdown, () => setMarkdown(""));
  }, [markdownFrom]);
  if (markdown !== null) {
    return (
      <LazyMarkdown citations={citations} question={question} partial={partial}>
        {markdown}
      </LazyMarkdown>
    );
  }
  return onServer && tree !== undefined ? (
    <div ref={ref} data-stored-report="">
      {tree}
    </div>
  ) : (
    <div
      ref={ref}
      data-stored-report=""
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own HTML of the report (kept as it is, or read again from the page), never the browser's input
      dangerouslySetInnerHTML={{ __html: html ?? "" }}
    />
  );
}
