// The report renderer turns no Markdown into a remote image, raw HTML or a script URL. Rendered for
// real (react-markdown through react-dom/server), over the known bypasses and a generated set of
// image syntaxes.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { withMessages } from "../test/support/intl.ts";
import { imageMarkdown, problems } from "../test/support/markdown-cases.ts";
import { Markdown } from "./markdown.tsx";
import { safeHref } from "./markdown-safety.ts";
import { ReportPanel } from "./run/report-panel.tsx";
import type { RunViewJson } from "./run/types";

const render = (md: string) => renderToStaticMarkup(withMessages(createElement(Markdown, null, md)));

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
    // The page's header holds the one H1: the report's own top heading is an H2.
    expect(html).toContain('<h2 id="h-title">Title</h2>');
    expect(html).toContain("<table>");
    expect(html).toContain('type="checkbox"');
    expect(html).toContain("<sup>");
    expect(html).not.toContain("alert(1)");
  });
});

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
  }, 120_000);

  it("the run page's report panel renders the same way", () => {
    for (const md of inputs.filter((_, i) => i % 37 === 0)) {
      const panel = createElement(ReportPanel, { run: runWithoutReport(), liveReport: md });
      const html = renderToStaticMarkup(withMessages(panel));
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

/** The fields of a run the report panel reads, for a run whose report is still being streamed. */
function runWithoutReport(): RunViewJson {
  const run = { id: "00000000-0000-4000-8000-000000000000", report: null, reportPartial: false };
  return { ...run, citationStats: null, citations: [], sources: [] } as unknown as RunViewJson;
}
