import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { pageLinks } from "./html-links.ts";

export interface HtmlExtraction {
  title: string;
  text: string;
  byline?: string;
  excerpt?: string;
  lang?: string;
  /** Absolute http(s) links of the page (only when its URL was given), main content first. */
  links?: string[];
}

/**
 * Elements whose content is never text a reader sees (linkedom runs no scripts anyway). JSON-LD is
 * kept because Readability reads title/byline metadata from it (as data, via JSON.parse).
 */
const NON_CONTENT =
  'script:not([type="application/ld+json"]), style, noscript, template, iframe, object, embed, svg, canvas';
/** Page chrome removed for the fallback (when Readability finds no article). */
const CHROME = "nav, header, footer, aside, form, [role=navigation], [role=banner], [role=contentinfo]";

const BLOCK = new Set(
  (
    "address article aside blockquote body caption dd details dialog div dl dt fieldset figcaption " +
    "figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p section summary table tbody td " +
    "tfoot th thead tr ul"
  ).split(" "),
);
const CELL = new Set(["td", "th"]);

/** Articles shorter than this are treated as "Readability found nothing useful". */
const MIN_ARTICLE_CHARS = 200;

/**
 * Block-aware text of a DOM subtree: paragraphs (and other blocks) separated by blank lines,
 * whitespace inside a paragraph collapsed, <br> as a line break, <pre> kept verbatim.
 */
export function blockText(root: Node): string {
  const paragraphs: string[] = [];
  let buf = "";
  const flush = () => {
    const text = buf
      .split("\n")
      .map((line) => line.replace(/[ \t\f\r]+/g, " ").trim())
      .filter((line) => line !== "")
      .join("\n");
    if (text) paragraphs.push(text);
    buf = "";
  };
  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      buf += (node.textContent ?? "").replace(/\s+/g, " ");
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = (node as Element).tagName.toLowerCase();
    if (tag === "br") {
      buf += "\n";
      return;
    }
    if (tag === "pre") {
      flush();
      const pre = (node.textContent ?? "").replace(/\s+$/, "");
      if (pre.trim()) paragraphs.push(pre);
      return;
    }
    if (CELL.has(tag)) {
      buf += " ";
      for (const child of Array.from(node.childNodes)) walk(child);
      buf += " ";
      return;
    }
    const block = BLOCK.has(tag);
    if (block) flush();
    if (tag === "li") buf += "- ";
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) flush();
  };
  walk(root);
  flush();
  return paragraphs.join("\n\n");
}

function parse(html: string): Document {
  const { document } = parseHTML(html);
  const doc = document as unknown as Document;
  for (const el of Array.from(doc.querySelectorAll(NON_CONTENT))) el.remove();
  return doc;
}

function clean(s: string | null | undefined): string | undefined {
  const t = s?.replace(/\s+/g, " ").trim();
  return t ? t : undefined;
}

/**
 * HTML → main text with Readability; falls back to the body text minus page chrome. Given the
 * page's URL, its links are collected too (before Readability rewrites the document).
 */
export function extractHtml(html: string, pageUrl?: string): HtmlExtraction {
  const doc = parse(html);
  const links = pageUrl ? pageLinks(doc, pageUrl) : undefined;
  const docTitle = clean(doc.querySelector("title")?.textContent);
  const h1 = clean(doc.querySelector("h1")?.textContent);
  const lang = clean(doc.documentElement?.getAttribute("lang"));

  // The serializer hands back the article node itself, so paragraphs can be rebuilt from the DOM.
  const article = new Readability<Node>(doc, { serializer: (node) => node }).parse();
  let text = article?.content ? blockText(article.content) : "";

  if (text.length < MIN_ARTICLE_CHARS) {
    const fresh = parse(html); // Readability mutated the first document.
    for (const el of Array.from(fresh.querySelectorAll(`script, ${CHROME}`))) el.remove();
    const bodyText = fresh.body ? blockText(fresh.body) : "";
    // On short pages Readability tends to return the whole body, chrome included; prefer our own.
    if (bodyText) text = bodyText;
  }

  return {
    title: clean(article?.title) ?? docTitle ?? h1 ?? "",
    text,
    byline: clean(article?.byline),
    excerpt: clean(article?.excerpt),
    lang: clean(article?.lang) ?? lang,
    ...(links ? { links } : {}),
  };
}
