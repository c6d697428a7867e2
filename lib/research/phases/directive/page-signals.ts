/**
 * What a page says about itself, beyond its domain: the signals that move a source's quality tier
 * (source-quality.ts combines them with the domain class). Read from the URL's path and host, the
 * title, and the start of the text (a search snippet or the page read), so a hit and a page are
 * judged alike:
 *
 *   paper      a DOI (10.NNNN/…) in the URL or in the first lines of the text → HIGH
 *   standard   a standards document: "RFC 9110", "ISO 8601", "ISO/IEC 27001", "IEEE Std 802.11",
 *              "W3C Recommendation", an Internet-Draft → HIGH
 *   docs       official documentation: a docs./developer./learn. host, a /docs/, /documentation/,
 *              /reference/ or /manual/ path, or a title naming documentation or an API reference
 *              → at least MEDIUM
 *   data       primary data: a data./stats. host, a /dataset(s)/ path, or a title naming a dataset
 *              or statistical release → at least MEDIUM
 *   forum      a forum, Q&A or discussion thread: a forum./community./discuss. host, a
 *              /forum(s)/, /thread(s)/, /questions/, /discussions/ or /t/ path, viewtopic.php →
 *              LOW (unless the domain itself is HIGH)
 *
 * Only the first HEAD_CHARS of the text are looked at: a forum post that quotes a DOI further down
 * is still a forum post, and a DOI in a paper's references is not the page's own.
 */

export type PageSignal = "paper" | "standard" | "docs" | "data" | "forum";

export interface PageFacts {
  title?: string | null;
  text?: string | null;
}

const HEAD_CHARS = 1500;

const DOI = /\b10\.\d{4,9}\/[^\s"'<>]+/;
const STANDARD =
  /\b(RFC\s?\d{3,5}|ISO(?:\/IEC)?\s\d{3,5}(?:-\d+)?|IEEE\s+Std\s+\d|W3C\s+(?:Recommendation|Candidate Recommendation|Working Draft)|Internet-Draft)\b/;
const DOCS_HOST = /^(docs|developer|developers|learn|devdocs)\./;
const DOCS_PATH = /\/(docs|documentation|reference|manual|api-reference)(\/|$)/i;
const DOCS_TITLE = /\b(documentation|api reference|reference manual|developer guide|user guide)\b/i;
const DATA_HOST = /^(data|stats|statistics|opendata)\./;
const DATA_PATH = /\/datasets?(\/|$)/i;
const DATA_TITLE = /\b(dataset|data set|statistical (release|bulletin)|official statistics)\b/i;
const FORUM_HOST = /^(forum|forums|community|discuss|discourse|answers|bbs)\./;
const FORUM_PATH = /\/(forums?|threads?|questions|discussions|t|topic|viewtopic\.php)(\/|$)/i;

function parts(url: string): { host: string; path: string } {
  try {
    const u = new URL(url);
    let path = u.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // A malformed escape: the raw path still shows most signals.
    }
    return { host: u.hostname.toLowerCase().replace(/^www\./, ""), path };
  } catch {
    return { host: "", path: "" };
  }
}

/** The strongest signal the page gives about itself, or undefined when it gives none. */
export function pageSignal(url: string, page: PageFacts = {}): PageSignal | undefined {
  const { host, path } = parts(url);
  if (!host) return undefined;
  const title = page.title ?? "";
  const head = `${title}\n${(page.text ?? "").slice(0, HEAD_CHARS)}`;
  // Forums first: a thread that mentions an RFC or a DOI is still a discussion about it.
  if (FORUM_HOST.test(host) || FORUM_PATH.test(path)) return "forum";
  if (DOI.test(path) || DOI.test(head)) return "paper";
  if (STANDARD.test(head)) return "standard";
  if (DOCS_HOST.test(host) || DOCS_PATH.test(path) || DOCS_TITLE.test(title)) return "docs";
  if (DATA_HOST.test(host) || DATA_PATH.test(path) || DATA_TITLE.test(title)) return "data";
  return undefined;
}
