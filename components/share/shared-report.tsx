import type { SharedReport } from "@/lib/server/shares/view";
import { SharedPdfLink } from "../exports/shared-pdf-link";
import { Markdown } from "../markdown";
import { CitationCards } from "../report/citation-cards";
import { citationCards } from "../report/citation-data";
import { remarkRedactPrivateSources } from "./redact-private-sources";

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" });

/**
 * The read-only report behind a share link: the question (once: the report's own leading heading
 * is not repeated), the date, the report and its Sources list, nothing else of the run. A server
 * component on purpose: the report is redacted while rendering, so neither the private sources'
 * URLs nor their titles ever reach the recipient's browser. The citation cards carry their
 * passages with them: the recipient has no session for the owner's API.
 */
export function SharedReportView({ shared, pdfHref }: { shared: SharedReport; pdfHref?: string }) {
  const { question, status, report, privateSourceUrls, date } = shared;
  const cards = citationCards(shared.citations, shared.sources);
  return (
    <article className="space-y-6">
      <header className="space-y-1">
        <p className="text-sm text-muted">Shared research report (read-only)</p>
        <h1 className="text-2xl font-semibold tracking-tight">{question}</h1>
        <p className="text-sm text-muted">{dateFormat.format(new Date(date))}</p>
        {pdfHref && report && <SharedPdfLink href={pdfHref} />}
      </header>
      {report ? (
        <div
          data-print="report"
          className="rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <CitationCards citations={{ cards }}>
            <Markdown
              question={question}
              partial={report.partial}
              citations={{ cards }}
              remarkPlugins={[[remarkRedactPrivateSources, { privateUrls: privateSourceUrls }]]}
            >
              {report.markdown}
            </Markdown>
          </CitationCards>
        </div>
      ) : (
        <p>This run has no report yet (status: {status}).</p>
      )}
    </article>
  );
}

/** The report's first paragraph as plain text, for the link preview (og:description). */
export function firstParagraph(markdown: string, max = 200): string {
  const para =
    markdown
      .split(/\n\s*\n/)
      .map((b) => b.trim())
      .find((b) => b && !/^(#|[-*+]\s|\d+[.)]\s|>|\||```|\[\d+\])/.test(b)) ?? "";
  const plain = para
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/!?\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/\[\^?\d+(?:[,;\s-]+\d+)*\]/g, "")
    .replace(/[*_`~]/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1).trimEnd()}…` : plain;
}
