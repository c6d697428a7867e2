import { useFormatter, useTranslations } from "next-intl";
import type { SharedReport } from "@/lib/server/shares/view";
import { SharedPdfLink } from "../exports/shared-pdf-link";
import { CitationCards } from "../report/citation-cards";
import { type CitationCard, citationCards } from "../report/citation-data";
import { StoredReportSlot } from "../report/stored-report-slot";
import { useReportNames } from "../report/verdict";
import { drawStoredReport } from "../run/stored-report";
import { remarkRedactPrivateSources } from "./redact-private-sources";
import { SharedThread } from "./shared-thread";

/**
 * The read-only report behind a share link: the question (once: the report's own leading heading
 * is not repeated), the date, the report and its Sources list, nothing else of the run. A server
 * component on purpose: the report is redacted while rendering, so neither the private sources'
 * URLs nor their titles ever reach the recipient's browser. The report is in the page once, as
 * HTML (drawn like the owner's stored report: the page's data names it by key); a citation card
 * loads its claims and passages from the link's own endpoint (`passagesFrom`, under the share's
 * path: the recipient has no session for the owner's API). The page's words are in the reader's
 * language; the word it writes into the report ("private document") is in the report's
 * (`privateDocument`, looked up by the page for `shared.language`).
 */
export function SharedReportView({
  shared,
  token,
  pdfHref,
  privateDocument,
}: {
  shared: SharedReport;
  /** "private document" in the report's language. */
  privateDocument: string;
  /** The link's token; without it (a preview) the cards carry their passages. */
  token?: string;
  pdfHref?: string;
}) {
  const t = useTranslations("share.page");
  const format = useFormatter();
  const names = useReportNames();
  const { question, status, report, privateSourceUrls, date } = shared;
  // A private document comes without its address (lib/server/shares/view.ts): its card is titled
  // with the same words as its entry in the report.
  const sources = shared.sources.map((s) => (s.url ? s : { ...s, title: privateDocument }));
  const cards = citationCards(shared.citations, sources);
  const drawnKey =
    report &&
    drawStoredReport({
      markdown: report.markdown,
      question,
      partial: report.partial,
      citations: { cards },
      names,
      remarkPlugins: [[remarkRedactPrivateSources, { privateUrls: privateSourceUrls, privateDocument }]],
      keyParts: ["share", privateSourceUrls, privateDocument],
    });
  const pageCitations = token
    ? { cards: markerCards(cards), passagesFrom: `/share/${encodeURIComponent(token)}/sources/` }
    : { cards };
  return (
    <article className="space-y-6">
      <header className="space-y-1">
        <p className="text-sm text-muted">{t("kind")}</p>
        <h1 className="text-2xl font-semibold tracking-tight">{question}</h1>
        <p className="text-sm text-muted">
          {format.dateTime(new Date(date), { dateStyle: "long", timeZone: "UTC" })}
        </p>
        {pdfHref && report && <SharedPdfLink href={pdfHref} />}
      </header>
      {report ? (
        <div
          data-print="report"
          className="rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <CitationCards citations={pageCitations}>
            <StoredReportSlot drawnKey={drawnKey ?? ""} question={question} partial={report.partial} />
          </CitationCards>
        </div>
      ) : (
        <p>{t("noReport", { status })}</p>
      )}
      {shared.thread && (
        <SharedThread
          thread={shared.thread}
          sources={sources}
          privateSourceUrls={privateSourceUrls}
          privateDocument={privateDocument}
        />
      )}
    </article>
  );
}

/**
 * What the page's data needs of the cards: each number's source and verdicts, once per distinct
 * verdict (the markers carry theirs already; a card loads its claims when it opens).
 */
function markerCards(cards: readonly CitationCard[]): CitationCard[] {
  return cards.map((card) => ({
    ...card,
    claims: [...new Set(card.claims.map((c) => c.support))].map((support) => ({
      sentence: "",
      support,
      reason: null,
    })),
  }));
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
