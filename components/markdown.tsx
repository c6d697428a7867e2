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
import { type CitationCard, markerVerdicts, type ReportCitations } from "./report/citation-data";
import { CitationLink } from "./report/citation-link";
import { remarkReportShape } from "./report/remark-report";

const REPORT_STYLE =
  "report space-y-4 leading-7 [&_a]:text-blue-700 [&_a]:underline dark:[&_a]:text-blue-400 [&_a.citation]:decoration-dotted [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:font-semibold [&_h3]:text-lg [&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc [&_table]:w-full [&_td]:border [&_td]:p-1 [&_th]:border [&_th]:p-1 [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-muted [&_[id^=source-]]:scroll-mt-4 [&_[id^=source-]:target]:bg-amber-100 dark:[&_[id^=source-]:target]:bg-amber-900/40";

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

const componentsByCitations = new WeakMap<ReportCitations, Components>();
const noCitations: ReportCitations = { cards: [] };

/**
 * The renderers for one report's citations, the same object for the same citations: a new
 * `components` object would make React remount every link on each render (an open citation card
 * would close under the pointer).
 */
function componentsFor(citations: ReportCitations = noCitations): Components {
  const cached = componentsByCitations.get(citations);
  if (cached) return cached;
  const cards = new Map<number, CitationCard>(citations.cards.map((c) => [c.number, c]));
  const components: Components = {
    a: ({ href, children: c, node }) => {
      const props = node?.properties as Props;
      const n = Number(props?.dataCitation);
      if (Number.isInteger(n) && n > 0) {
        const verdict = props?.dataVerdict as CitationSupport | undefined;
        // No empty props when the cards come from the context: a server-rendered report writes
        // every marker's props into the page.
        return citations.cardsInContext ? (
          <CitationLink number={n} verdict={verdict} />
        ) : (
          <CitationLink
            number={n}
            verdict={verdict}
            card={cards.get(n)}
            passagesFrom={citations.passagesFrom}
          />
        );
      }
      return <ReportLink href={href}>{c}</ReportLink>;
    },
    img: ({ src, alt }) => (
      <ReportLink href={typeof src === "string" ? safeHref(src) : undefined}>{alt || "image"}</ReportLink>
    ),
  };
  componentsByCitations.set(citations, components);
  return components;
}

/**
 * Report Markdown as HTML. A report quotes fetched pages, so its Markdown is untrusted: raw HTML is
 * dropped (skipHtml), images become links (remarkImagesAsLinks; an `img` that still appeared would be
 * drawn as a link too), only the elements Markdown itself makes are kept, every URL goes through
 * safeHref (http(s), mailto, relative), and bare-URL fragments are not linked. `remarkPlugins` run
 * after those steps (the share page's redaction); then the report's shape: citation markers as
 * links with their verdict (`citations`), anchors on the Sources list, headings below the page's H1.
 * The same renderer draws the streamed draft and the final report.
 */
export function Markdown(props: MarkdownProps) {
  return markdownTree(props);
}

interface MarkdownProps {
  children: string;
  remarkPlugins?: Options["remarkPlugins"];
  citations?: ReportCitations;
  question?: string;
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
          [remarkReportShape, { question, verdicts }],
        ],
        skipHtml: true,
        allowedElements: allowedReportElements,
        unwrapDisallowed: true,
        urlTransform: safeHref,
        components: componentsFor(citations),
      })}
    </div>
  );
}
