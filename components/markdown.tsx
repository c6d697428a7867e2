import type { ReactNode } from "react";
import ReactMarkdown, { type Components, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { CitationSupport } from "@/lib/research/ui";
import {
  allowedReportElements,
  remarkImagesAsLinks,
  remarkWellFormedAutolinks,
  safeHref,
} from "./markdown-safety";
import { markerVerdicts, type ReportCitations } from "./report/citation-data";
import { remarkReportShape } from "./report/remark-report";
import { type ReportNames, useReportNames } from "./report/verdict";

const REPORT_STYLE =
  "report space-y-4 leading-7 [&_a]:text-blue-700 [&_a]:underline dark:[&_a]:text-blue-400 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:font-semibold [&_h3]:text-lg [&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc [&_table]:w-full [&_td]:border [&_td]:p-1 [&_th]:border [&_th]:p-1 [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-muted [&_blockquote[data-notice]]:rounded [&_blockquote[data-notice]]:border-amber-500 [&_blockquote[data-notice]]:bg-amber-50 [&_blockquote[data-notice]]:py-2 [&_blockquote[data-notice]]:text-inherit dark:[&_blockquote[data-notice]]:bg-amber-950 [&_[id^=source-]]:scroll-mt-4 [&_[id^=source-]:target]:bg-amber-100 dark:[&_[id^=source-]:target]:bg-amber-900/40";

function ReportLink({ href, children }: { href?: string; children?: ReactNode }) {
  const external = href !== undefined && /^(?:https?:)?\/\//i.test(href);
  return external ? (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ) : (
    <a href={href}>{children}</a>
  );
}

type Props = Record<string, unknown> | undefined;

/**
 * The report's elements. A citation marker is a plain link (no component of its own, nothing per
 * marker in the page's data): its verdict shows as a mark drawn by CSS (globals.css, `.cite`) and
 * in its accessible name, and CitationCards around the report opens its one card.
 */
const reportComponents = (names: ReportNames): Components => ({
  a: ({ href, children: c, node }) => {
    const props = node?.properties as Props;
    const n = Number(props?.dataCitation);
    if (Number.isInteger(n) && n > 0) {
      const verdict = props?.dataVerdict as CitationSupport | undefined;
      return (
        <a
          href={`#source-${n}`}
          className="cite"
          data-citation={n}
          data-verdict={verdict}
          aria-label={names.marker(n, verdict)}
        >
          [{n}]
        </a>
      );
    }
    return <ReportLink href={href}>{c}</ReportLink>;
  },
  img: ({ src, alt }) => (
    <ReportLink href={typeof src === "string" ? safeHref(src) : undefined}>{alt || names.image}</ReportLink>
  ),
});

/**
 * Report Markdown as HTML. A report quotes fetched pages, so its Markdown is untrusted: raw HTML is
 * dropped (skipHtml), images become links (remarkImagesAsLinks; an `img` that still appeared would be
 * drawn as a link too), only the elements Markdown itself makes are kept, every URL goes through
 * safeHref (http(s), mailto, relative), and bare-URL fragments are not linked. `remarkPlugins` run
 * after those steps (the share page's redaction); then the report's shape: citation markers as
 * links with their verdict (`citations`), anchors on the Sources list, headings below the page's H1.
 * The same renderer draws the streamed draft and the final report.
 */
export function Markdown(props: Omit<MarkdownProps, "names">) {
  return markdownTree({ ...props, names: useReportNames() });
}

interface MarkdownProps {
  children: string;
  remarkPlugins?: Options["remarkPlugins"];
  citations?: ReportCitations;
  question?: string;
  /** The report is stored as partial (it then shows one notice saying so). */
  partial?: boolean;
  /** The page's own words around the report, in the reader's language (verdict.ts). */
  names: ReportNames;
}

/**
 * What `Markdown` draws, as a plain call (react-markdown's `Markdown` is a pure function without
 * hooks): the server may keep the tree of a stored report and draw it again without parsing.
 */
export function markdownTree({
  children,
  remarkPlugins = [],
  citations,
  question,
  partial,
  names,
}: MarkdownProps): ReactNode {
  const verdicts = markerVerdicts(children, citations?.cards ?? []);
  return (
    <div className={REPORT_STYLE}>
      {ReactMarkdown({
        children,
        remarkPlugins: [
          remarkGfm,
          remarkImagesAsLinks,
          remarkWellFormedAutolinks,
          ...(remarkPlugins ?? []),
          [remarkReportShape, { question, verdicts, partial, partialNotice: names.partial }],
        ],
        skipHtml: true,
        allowedElements: allowedReportElements,
        unwrapDisallowed: true,
        urlTransform: safeHref,
        components: reportComponents(names),
      })}
    </div>
  );
}
