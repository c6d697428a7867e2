/**
 * Test material for the report renderer: what a rendering may contain, and a generated set of
 * Markdown that tries to get an image, raw HTML or a script URL through (used by the renderer's
 * tests and the share page's).
 */

// What Markdown itself produces. Any other element (img, svg, iframe, script, …) or attribute
// (src, srcset, on*, style, …) could only come from raw HTML or an image, and is a failure.
const ELEMENTS = new Set(
  "div p h1 h2 h3 h4 h5 h6 a em strong del code pre blockquote ul ol li input table thead tbody tr th td hr br sup section".split(
    " ",
  ),
);
const ATTRIBUTES =
  /^(?:href|target|rel|class|id|type|checked|disabled|title|align|data-[a-z-]+|aria-[a-z-]+)$/;

const decode = (s: string) =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/**
 * Every problem with one rendering: markup Markdown does not make, or a link that is not
 * http(s)/mailto/relative. `pageElements`: what the component around the Markdown adds itself.
 */
export function problems(html: string, pageElements: string[] = []): string[] {
  const found: string[] = [];
  for (const [tag, name, attributes] of html.matchAll(
    /<([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g,
  )) {
    if (!ELEMENTS.has(name.toLowerCase()) && !pageElements.includes(name)) found.push(`element ${tag}`);
    for (const [, attribute] of attributes.matchAll(/\s([^\s=/>]+)(?:=(?:"[^"]*"|'[^']*'|[^\s>]*))?/g)) {
      if (!ATTRIBUTES.test(attribute)) found.push(`attribute ${attribute} in ${tag}`);
    }
  }
  for (const [, raw] of html.matchAll(/\shref="([^"]*)"/g)) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what a browser would strip, we strip
    const href = decode(raw).replace(/[\u0000-\u0020\u007F]/g, "");
    const scheme = href.match(/^([^/?#]*?):/)?.[1];
    if (scheme !== undefined && !/^(?:https?|mailto)$/i.test(scheme)) found.push(`href ${href}`);
  }
  return found;
}

const DESTINATIONS = [
  "https://evil.example/p.png",
  "http://evil.example/p",
  "HTTPS://EVIL.EXAMPLE/UP",
  "//evil.example/proto-relative",
  "https://evil.example/x(y(z))",
  "https&#58;//evil.example/entity-colon",
  "&#104;ttps://evil.example/entity-h",
  "https://evil.example/a%20b?q=1#f",
  "data:image/png;base64,iVBORw0KGgo=",
  "DATA:image/svg+xml,<svg onload=alert(1)>",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "&#106;avascript:alert(1)",
  "javascript&#58;alert(1)",
  "&#x6A;avascript&colon;alert(1)",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "/local/picture.png",
];
const wrap = (url: string) => [url, `<${url}>`, `${url} "title"`, `<${url}> 'title'`, `${url} (title)`];
const ALTS = ["a", "", "[[x]]", "nested [b] text", "*emph*", "`code`", "![inner](https://evil.example/i)"];

export function* imageMarkdown(): Generator<string> {
  for (const url of DESTINATIONS) {
    for (const dest of wrap(url)) {
      for (const alt of ALTS) {
        yield `![${alt}](${dest})`;
        yield `Text ![${alt}][ref] more.\n\n[ref]: ${dest}`;
        yield `![${alt}][]\n\nLater.\n\n[${alt || "empty"}]: ${dest}`;
        yield `![${alt || "shortcut"}]\n\n\n\n[${alt || "shortcut"}]: ${dest}`;
        yield `> quoted ![${alt}](${dest})\n\n- item ![${alt}][r2]\n\n[r2]:\n  ${dest}`;
        yield `| h |\n| - |\n| ![${alt}](${dest}) |`;
        yield `[![${alt}](${dest})](${dest})`;
        yield `Note[^n].\n\n[^n]: ![${alt}](${dest})`;
      }
      yield `[link](${dest})`;
      yield `[text][lr]\n\n[lr]: ${dest}`;
    }
    yield `<${url}>`;
    yield `see ${url} here`;
    yield `<img src="${url}">`;
    yield `<IMG SRC=${url} onerror=alert(1)>`;
    yield `para <img src='${url}'/> inline`;
    yield `<picture><source srcset="${url}"><img src="${url}"></picture>`;
    yield `<svg><image href="${url}"/></svg>`;
    yield `<a href="${url}">raw link</a>`;
    yield `<iframe src="${url}"></iframe>`;
  }
  yield "www.evil.example/auto.png";
  yield '<script src="https://evil.example/s.js"></script>';
  yield "<style>body{background:url(https://evil.example/bg)}</style>";
}
