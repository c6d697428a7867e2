// The report renderer turns no Markdown into a remote image, raw HTML or a script URL. Rendered for
// real (react-markdown through react-dom/server), over the known bypasses and a generated set of
// image syntaxes.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown.tsx";
import { safeHref } from "./markdown-safety.ts";
import { ReportPanel } from "./run/report-panel.tsx";

const render = (md: string) => renderToStaticMarkup(createElement(Markdown, null, md));

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

/** Every problem with one rendering: forbidden markup, or a link that is not http(s)/mailto/relative. */
function problems(html: string): string[] {
  const found: string[] = [];
  for (const [tag, name, attributes] of html.matchAll(
    /<([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g,
  )) {
    if (!ELEMENTS.has(name.toLowerCase())) found.push(`element ${tag}`);
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

describe("report Markdown: images", () => {
  it("turns the known image bypasses into links", () => {
    const cases: [string, string][] = [
      ["![a](<https://evil.example/a b>)", "https://evil.example/a%20b"],
      ["![[[x]]](https://evil.example/n)", "https://evil.example/n"],
      ["![a](https://evil.example/x(y(z)))", "https://evil.example/x(y(z))"],
      ["![a][r]\n\n[r]: https://evil.example/x", "https://evil.example/x"],
      ["Intro ![a][r] text.\n\nMore text.\n\n\n\n[r]: https://evil.example/far", "https://evil.example/far"],
      [
        "![a][r]\nsame paragraph\n\n   [r]: <https://evil.example/angle> 'title'",
        "https://evil.example/angle",
      ],
    ];
    for (const [md, href] of cases) {
      const html = render(md);
      expect(problems(html), md).toEqual([]);
      expect(html, md).toContain(`href="${href}"`);
    }
  });

  it("keeps the alt text as the link's text, and an image inside a link as plain text", () => {
    expect(render("![a chart](https://evil.example/c.png)")).toContain(">a chart</a>");
    expect(render("![](https://evil.example/c.png)")).toContain(">image</a>");
    const nested = render("[![badge](https://evil.example/b.svg)](https://ok.example/page)");
    expect(nested).toContain('href="https://ok.example/page"');
    expect(nested).toContain(">badge</a>");
    expect(nested.match(/<a\b/g)).toHaveLength(1);
  });

  it("drops raw HTML and keeps ordinary Markdown", () => {
    const html = render(
      '# Title\n\nText with <img src="https://evil.example/p" onerror="alert(1)"> and <b>bold</b>.\n\n<script>alert(1)</script>\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n- [x] done\n\nA note[^1].\n\n[^1]: The note.',
    );
    expect(problems(html)).toEqual([]);
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<table>");
    expect(html).toContain('type="checkbox"');
    expect(html).toContain("<sup>");
    expect(html).not.toContain("alert(1)");
  });
});

// --- the generated set ------------------------------------------------------------------------

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

function* imageMarkdown(): Generator<string> {
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

describe("report Markdown: a generated set of image and link syntaxes", () => {
  const inputs = [...imageMarkdown()];

  it("covers a few thousand variants", () => {
    expect(inputs.length).toBeGreaterThan(5000);
  });

  it("no variant renders an image, raw HTML or a link outside http(s)/mailto/relative", () => {
    const failures: string[] = [];
    for (const md of inputs) {
      const found = problems(render(md));
      if (found.length) failures.push(`${JSON.stringify(md)}: ${found.join(", ")}`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it("the run page's report panel renders the same way", () => {
    for (const md of inputs.filter((_, i) => i % 37 === 0)) {
      const html = renderToStaticMarkup(
        createElement(ReportPanel, { report: md, partial: false, citationStats: null, stored: true }),
      );
      expect(problems(html), md).toEqual([]);
    }
  });
});

describe("safeHref", () => {
  it("keeps http(s), mailto and relative URLs", () => {
    for (const url of [
      "https://a.example/x",
      "HTTP://a.example",
      "mailto:someone@example.org",
      "/path",
      "page.html",
      "#fn-1",
      "?q=1",
      "//a.example/x",
    ]) {
      expect(safeHref(url)).toBe(url);
    }
  });

  it("drops every other scheme, however it is spelled", () => {
    for (const url of [
      "javascript:alert(1)",
      " JAVASCRIPT:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "\u0001javascript:alert(1)",
      "data:text/html,x",
      "vbscript:x",
      "file:///etc/passwd",
      "blob:https://a.example/1",
      "",
      "   ",
    ]) {
      expect(safeHref(url), JSON.stringify(url)).toBeUndefined();
    }
  });
});
