import { stripNul } from "../nul.ts";
import { decodeText, sniffHtmlCharset } from "./decode.ts";
import { ExtractionError } from "./errors.ts";
import { extractHtml } from "./html-text.ts";
import { extractPdf, PdfPageLimitError } from "./pdf-text.ts";
import type { FetchedResource, SafeFetchOptions } from "./safe-fetch.ts";
import { safeFetch } from "./safe-fetch.ts";

export interface ExtractedDocument {
  url: string;
  title: string;
  text: string;
  contentType: string;
  byline?: string;
  excerpt?: string;
  lang?: string;
  /** HTML only: the page's absolute http(s) links (see html-links.ts). */
  links?: string[];
}

export {
  type ExtractionDetails,
  ExtractionError,
  type ExtractionFailure,
  extractionFailures,
} from "./errors.ts";

export interface ExtractOptions {
  /** PDFs with more pages are refused (reason `too_many_pages`). */
  maxPdfPages?: number;
}

/** A readable stand-in title from the URL when the document has none: its last path segment or host. */
function titleFromUrl(url: string): string {
  try {
    const u = new URL(url);
    const last = u.pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last) : u.hostname;
  } catch {
    return url;
  }
}

/** First Markdown heading, else the first non-empty line (shortened). */
function titleFromPlainText(text: string, markdown: boolean): string | undefined {
  const lines = text.split("\n", 200);
  if (markdown) {
    const heading = lines.find((l) => /^#{1,6}\s+\S/.test(l));
    if (heading)
      return heading
        .replace(/^#{1,6}\s+/, "")
        .replace(/\s+#*\s*$/, "")
        .trim();
  }
  const first = lines.find((l) => l.trim() !== "")?.trim();
  if (!first) return undefined;
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Turns a fetched resource into text: HTML → Readability main text (body text when there is no
 * article), PDF → text via unpdf, text/plain and Markdown as they are. Content is treated as data
 * only; nothing in it is executed. U+0000 is dropped from every text field (lib/nul.ts): it means
 * nothing in a page, and PostgreSQL cannot store it.
 */
export async function extractDocument(
  res: FetchedResource,
  opts: ExtractOptions = {},
): Promise<ExtractedDocument> {
  const doc = await extractText(res, opts);
  const clean = (s: string | undefined) => (s === undefined ? s : stripNul(s));
  return {
    ...doc,
    title: stripNul(doc.title),
    text: stripNul(doc.text),
    byline: clean(doc.byline),
    excerpt: clean(doc.excerpt),
    lang: clean(doc.lang),
  };
}

async function extractText(res: FetchedResource, opts: ExtractOptions): Promise<ExtractedDocument> {
  const base = { url: res.url, contentType: res.contentType };
  switch (res.contentType) {
    case "text/html":
    case "application/xhtml+xml": {
      // Precedence as in browsers: BOM (inside decodeText), then the HTTP header, then <meta>.
      const html = decodeText(res.body, res.charset ?? sniffHtmlCharset(res.body));
      const doc = extractHtml(html, res.url);
      return {
        ...base,
        title: doc.title || titleFromUrl(res.url),
        text: tidy(doc.text),
        byline: doc.byline,
        excerpt: doc.excerpt,
        lang: doc.lang,
        links: doc.links ?? [],
      };
    }
    case "application/pdf": {
      let pdf: Awaited<ReturnType<typeof extractPdf>>;
      try {
        pdf = await extractPdf(res.body, { maxPages: opts.maxPdfPages });
      } catch (e) {
        if (e instanceof PdfPageLimitError) {
          const details = { pages: e.pages, limit: e.maxPages };
          throw new ExtractionError(res.url, e.message, e, "too_many_pages", details);
        }
        const detail = e instanceof Error ? e.message : String(e);
        throw new ExtractionError(res.url, `Could not read the PDF: ${detail}`, e, "unreadable", { detail });
      }
      const text = tidy(pdf.text);
      return {
        ...base,
        title: pdf.title ?? titleFromPlainText(text, false) ?? titleFromUrl(res.url),
        text,
        lang: pdf.lang,
      };
    }
    case "text/plain":
    case "text/markdown": {
      const text = tidy(decodeText(res.body, res.charset));
      const markdown = res.contentType === "text/markdown";
      return { ...base, title: titleFromPlainText(text, markdown) ?? titleFromUrl(res.url), text };
    }
    default:
      throw new ExtractionError(res.url, `No text extractor for ${res.contentType || "(unknown type)"}`);
  }
}

/** safeFetch + extractDocument. Throws FetchRefusedError or ExtractionError. */
export async function fetchDocument(url: string, opts?: SafeFetchOptions): Promise<ExtractedDocument> {
  return extractDocument(await safeFetch(url, opts));
}
