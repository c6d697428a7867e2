import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * Report Markdown as HTML: raw HTML in the Markdown is dropped (skipHtml), never rendered, and
 * only http(s) links survive — a report quotes fetched pages and must not carry their markup.
 */
export function Markdown({ children }: { children: string }) {
  return (
    <div className="report space-y-4 leading-7 [&_a]:text-blue-700 [&_a]:underline dark:[&_a]:text-blue-400 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc [&_table]:w-full [&_td]:border [&_td]:p-1 [&_th]:border [&_th]:p-1 [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-zinc-600">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        urlTransform={(url) => (/^https?:\/\//i.test(url) || url.startsWith("#") ? url : "")}
        components={{
          a: ({ href, children: c }) => (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow">
              {c}
            </a>
          ),
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
