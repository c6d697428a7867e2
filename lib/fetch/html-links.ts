/**
 * The links of an HTML page, for following a page's references (a researcher may read a page that
 * a page it already read links to). Only absolute http(s) targets are kept, resolved against the
 * page's own URL (or its <base href>), without fragments, each once, and at most a bounded number:
 * links inside the main content come first, so a long navigation menu does not crowd them out.
 */

/** Enough to follow a page's references; bounded so one page cannot flood a run with links. */
export const MAX_LINKS_PER_PAGE = 100;
/** Longer hrefs are data smuggled in a URL, not references worth following. */
const MAX_LINK_CHARS = 2_000;
const MAIN_CONTENT = "article a[href], main a[href], [role=main] a[href]";

function baseOf(doc: Document, pageUrl: string): string {
  const href = doc.querySelector("base[href]")?.getAttribute("href")?.trim();
  if (!href) return pageUrl;
  try {
    const base = new URL(href, pageUrl);
    return base.protocol === "http:" || base.protocol === "https:" ? base.href : pageUrl;
  } catch {
    return pageUrl;
  }
}

function absoluteWebUrl(href: string, base: string): string | undefined {
  let u: URL;
  try {
    u = new URL(href.trim(), base);
  } catch {
    return undefined;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
  u.hash = "";
  return u.href.length <= MAX_LINK_CHARS ? u.href : undefined;
}

/** The page's links in document order, main content first, de-duplicated and capped. */
export function pageLinks(doc: Document, pageUrl: string, max = MAX_LINKS_PER_PAGE): string[] {
  const base = baseOf(doc, pageUrl);
  const anchors = [
    ...Array.from(doc.querySelectorAll(MAIN_CONTENT)),
    ...Array.from(doc.querySelectorAll("a[href]")),
  ];
  const links = new Set<string>();
  for (const a of anchors) {
    if (links.size >= max) break;
    const url = absoluteWebUrl(a.getAttribute("href") ?? "", base);
    if (url) links.add(url);
  }
  return [...links];
}
