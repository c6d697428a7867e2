// The share page's report, rendered for real: library sources appear as "private document" with
// neither title nor URL, web sources as they are, and the renderer's safety holds here too.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SharedReport } from "@/lib/server/shares/view";
import { withMessages } from "../../test/support/intl.ts";
import { imageMarkdown, problems } from "../../test/support/markdown-cases.ts";
import { firstParagraph, SharedReportView } from "./shared-report.tsx";

const PRIVATE_ID = "0b6f1c1e-4c59-4a0e-9a43-3f3f3c7a6c01";
const report = [
  "# Heat pumps",
  "",
  "Cold-climate units keep a COP above 2 [1]. The board memo sets the budget ([the memo](https://intranet.example/memo)) [2].",
  "An uploaded note agrees [3], as does [the vendor sheet][v].",
  "",
  "[v]: https://intranet.example/memo",
  "",
  "## Sources",
  "",
  "[1] [Cold climate performance](https://web.example/cold)",
  "",
  "[2] [Board memo: heat pump budget 2031](https://intranet.example/memo)",
  "",
  `[3] [Uploaded note \\[draft\\]](library://${PRIVATE_ID})`,
  "",
].join("\n");

const shared = (markdown: string, privateSourceUrls: string[] = []): SharedReport => ({
  question: "Heat pumps in the cold?",
  language: "en",
  status: "completed",
  date: new Date("2031-03-04T10:00:00Z"),
  report: { markdown, partial: false },
  citations: [],
  sources: [],
  privateSourceUrls,
  allowDownload: false,
  thread: undefined,
});
const render = (s: SharedReport, privateDocument = "private document", locale: "en" | "de" | "zh" = "en") =>
  renderToStaticMarkup(withMessages(createElement(SharedReportView, { shared: s, privateDocument }), locale));

describe("the shared report", () => {
  const html = render(shared(report, ["https://intranet.example/memo", `library://${PRIVATE_ID}`]));

  it("lists library sources as private documents, without title or URL", () => {
    expect(html).toContain("[2] private document");
    expect(html).toContain("[3] private document");
    expect(html).not.toMatch(/Board memo|Uploaded note|intranet\.example|library:|0b6f1c1e/);
  });

  it("keeps web sources, and the words of a link to a private source without the link", () => {
    expect(html).toContain(
      '<a href="https://web.example/cold" target="_blank" rel="noopener noreferrer nofollow">Cold climate performance</a>',
    );
    expect(html).toContain("(the memo)");
    expect(html).toContain("the vendor sheet");
    // One link to a page; the rest are the citation markers' links to their entries.
    expect(html.match(/<a\b(?![^>]*data-citation)/g)).toHaveLength(1);
    expect(html.match(/<a href="#source-\d"[^>]*data-citation/g)).toHaveLength(3);
  });

  it("shows the question and nothing of the run but the report", () => {
    expect(html).toContain(
      "<h1>Heat pumps in the cold?</h1>".replace(
        "<h1>",
        '<h1 class="text-2xl font-semibold tracking-tight">',
      ),
    );
    expect(html).not.toMatch(/Runs|Knowledge|Library|href="\/"/);
  });

  it("shows the question once, the date, and citation markers with their verdicts", () => {
    const page = render({
      ...shared(
        `# Heat pumps in the cold?\n\nA claim [1].\n\n## Sources\n\n[1] [Cold](https://web.example/cold)\n`,
      ),
      citations: [
        {
          number: 1,
          sourceId: "s1",
          sentence: "A claim.",
          support: "supported",
          reason: null,
          because: null,
          passage: "COP 2.1",
        },
      ],
      sources: [{ id: "s1", title: "Cold", domain: "web.example", url: "https://web.example/cold" }],
    });
    expect(page.match(/Heat pumps in the cold\?/g)).toHaveLength(1);
    expect(page.match(/<h1\b/g)).toHaveLength(1);
    expect(page).toContain("March 4, 2031");
    expect(page).toContain('aria-label="Source 1, supported by the source"');
    expect(page).toContain('<p id="source-1">');
  });

  it("takes the link preview's description from the report's first paragraph", () => {
    expect(firstParagraph(report)).toBe(
      "Cold-climate units keep a COP above 2. The board memo sets the budget (the memo). An uploaded note agrees, as does the vendor sheet.",
    );
  });

  it("speaks the reader's language around the report, and the report's inside it", () => {
    // An English report read by a German reader: the page's words and the markers' names are German,
    // the word written into the report's Sources list is the report's (the page passes it in).
    const withVerdict = {
      ...shared(`A claim [1].\n\n## Sources\n\n[1] [Memo](https://intranet.example/memo)\n`, [
        "https://intranet.example/memo",
      ]),
      citations: [
        {
          number: 1,
          sourceId: "s1",
          sentence: "A claim.",
          support: "supported" as const,
          reason: null,
          because: null,
          passage: null,
        },
      ],
      sources: [{ id: "s1", title: "private document", domain: null, url: "" }],
    };
    const english = render(withVerdict);
    const german = render(withVerdict, "private document", "de");
    expect(english).toContain('aria-label="Source 1, supported by the source"');
    expect(german).toContain("Geteilter Recherchebericht (nur zum Lesen)");
    expect(german).toContain("4. März 2031");
    // Not the tree kept for the English reader: the kept drawing's key has the reader's words.
    expect(german).toContain('aria-label="Quelle 1, von der Quelle gestützt"');
    expect(german).not.toContain("Source 1");
    expect(german).toContain("[1] private document");
    const chinese = render(withVerdict, "私有文档", "zh");
    expect(chinese).toContain("分享的研究报告（只读）");
    expect(chinese).toContain("[1] 私有文档");
    expect(render({ ...shared(""), report: undefined, status: "running" }, "", "de")).toContain(
      "Dieser Durchlauf hat noch keinen Bericht (Status: läuft).",
    );
  });

  it("says so when the run has no report yet", () => {
    const none = render({ ...shared(""), report: undefined, status: "running" });
    expect(none).toContain("This run has no report yet (status: running).");
  });

  it("renders no image, raw HTML or script URL from the generated set", () => {
    const failures: string[] = [];
    for (const md of [...imageMarkdown()].filter((_, i) => i % 11 === 0)) {
      const found = problems(render(shared(md, ["https://evil.example/p.png"])), ["article", "header"]);
      if (found.length) failures.push(`${JSON.stringify(md)}: ${found.join(", ")}`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });
});
