import type { ReactNode } from "react";
import ReactMarkdown, { type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import { allowedReportElements, remarkImagesAsLinks, safeHref } from "./markdown-safety";

const REPORT_STYLE =
  "report space-y-4 leading-7 [&_a]:text-blue-700 [&_a]:underline dark:[&_a]:text-blue-400 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc [&_table]:w-full [&_td]:border [&_td]:p-1 [&_th]:border [&_th]:p-1 [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-zinc-600";

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

/**
 * Report Markdown as HTML. A report quotes fetched pages, so its Markdown is untrusted: raw HTML is
 * dropped (skipHtml), images become links (remarkImagesAsLinks; an `img` that still appeared would be
 * drawn as a link too), only the elements Markdown itself makes are kept, and every URL goes through
 * safeHref (http(s), mailto, relative). `remarkPlugins` run after those steps (the share page's
 * redaction).
 */
export function Markdown({
  children,
  remarkPlugins = [],
}: {
  children: string;
  remarkPlugins?: Options["remarkPlugins"];
}) {
  return (
    <div className={REPORT_STYLE}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm, remarkImagesAsLinks, ...(remarkPlugins ?? [])]}
        skipHtml
        allowedElements={allowedReportElements}
        unwrapDisallowed
        urlTransform={safeHref}
        components={{
          a: ({ href, children: c }) => <ReportLink href={href}>{c}</ReportLink>,
          img: ({ src, alt }) => (
            <ReportLink href={typeof src === "string" ? safeHref(src) : undefined}>
              {alt || "image"}
            </ReportLink>
          ),
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
