// The report as a page shows it, rendered for real: citation markers link to their source entry
// with their verdict, one H1 on the page, no links from URL fragments, a download's file name.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { withMessages } from "../../test/support/intl.ts";
import { problems } from "../../test/support/markdown-cases.ts";
import { Markdown } from "../markdown.tsx";
import { isWellFormedWebUrl } from "../markdown-safety.ts";
import { citationCards, markerVerdicts, type ReportCitations } from "./citation-data.ts";
import { reportFilename } from "./filename.ts";

const SOURCE_A = "11111111-1111-4111-8111-111111111111";
const SOURCE_B = "22222222-2222-4222-8222-222222222222";
const report = [
  "# Heat pumps in the cold?",
  "",
  "Cold-climate units keep a COP above 2 at -15 °C [1]. They cost less to run than gas [1][2].",
  "",
  "## Running costs",
  "",
  "Code stays code: `a[1]`.",
  "",
  "## Sources",
  "",
  "[1] [Cold climate performance](https://web.example/cold) *(read in full)*",
  "",
  "[2] [Running costs](https://web.example/costs)",
  "",
].join("\n");

const cards = citationCards(
  [
    {
      number: 1,
      sourceId: SOURCE_A,
      sentence: "Cold-climate units keep a COP above 2 at -15 °C.",
      support: "supported",
      reason: "The page gives it.",
    },
    {
      number: 1,
      sourceId: SOURCE_A,
      sentence: "They cost less to run than gas.",
      support: "unsupported",
      reason: "Not on the page.",
    },
    {
      number: 2,
      sourceId: SOURCE_B,
      sentence: "They cost less to run than gas.",
      support: "partially_supported",
      reason: null,
    },
  ],
  [
    {
      id: SOURCE_A,
      title: "Cold climate performance",
      domain: "web.example",
      url: "https://web.example/cold",
    },
    { id: SOURCE_B, title: "Running costs", domain: "web.example", url: "https://web.example/costs" },
  ],
);
const citations: ReportCitations = { cards, passagesFrom: "/api/runs/x/sources/" };
const render = (md: string, c?: ReportCitations, question?: string, partial?: boolean) =>
  renderToStaticMarkup(
    withMessages(
      createElement(Markdown, { citations: c, question, partial } as Parameters<typeof Markdown>[0], md),
    ),
  );

describe("citation markers", () => {
  const html = render(report, citations, "Heat pumps in the cold?");
  const markers = [...html.matchAll(/<a [^>]*data-citation="(\d+)"[^>]*>/g)];

  it("link to their source entry, which carries the anchor", () => {
    expect(markers.map((m) => m[1])).toEqual(["1", "1", "2"]);
    for (const [tag, n] of markers) expect(tag).toContain(`href="#source-${n}"`);
    expect(html).toContain('<p id="source-1">');
    expect(html).toContain('<p id="source-2">');
  });

  it("show each claim's own verdict as a mark and in the accessible name", () => {
    expect(markers.map((m) => m[0].match(/aria-label="([^"]*)"/)?.[1])).toEqual([
      "Source 1, supported by the source",
      "Source 1, not supported by the source",
      "Source 2, partly supported by the source",
    ]);
    expect(markers.map((m) => m[0].match(/data-verdict="([^"]*)"/)?.[1])).toEqual([
      "supported",
      "unsupported",
      "partially_supported",
    ]);
    // The mark is drawn by CSS from data-verdict: no markup per marker beyond the link itself.
    expect(markers.map((m) => m[0].match(/class="([^"]*)"/)?.[1])).toEqual(["cite", "cite", "cite"]);
    expect(html).toContain('aria-label="Source 1, supported by the source">[1]</a>');
  });

  it("leave code, link words and the Sources list's numbers as text", () => {
    expect(html).toContain("<code>a[1]</code>");
    expect(render("A [link [2]](https://web.example/x).", citations)).toContain(
      '<a href="https://web.example/x" target="_blank" rel="noopener noreferrer nofollow">link [2]</a>',
    );
    expect(html).toContain('<p id="source-1">[1] <a href="https://web.example/cold"');
  });

  it("are links without a verdict while the draft streams (no citation data yet)", () => {
    const draft = render("A claim [3].");
    expect(draft).toContain('href="#source-3"');
    expect(draft).toContain('aria-label="Source 3"');
    expect(draft).not.toContain("data-verdict");
  });

  it("read each marker's sentence the way the citations were stored", () => {
    expect(markerVerdicts(report, cards)).toEqual(
      new Map([
        [1, ["supported", "unsupported"]],
        [2, ["partially_supported"]],
      ]),
    );
  });

  it("keep the rendering within what Markdown makes", () => {
    expect(problems(html)).toEqual([]);
  });
});

describe("one H1 on the page", () => {
  it("drops the report's leading H1 (the page shows the question as its title) and keeps the other headings", () => {
    const html = render(report, citations, "Heat pumps in the cold?");
    expect(html).not.toContain("<h1");
    expect(html).not.toContain("Heat pumps in the cold?");
    expect(html).toContain('<h2 id="h-running-costs">Running costs</h2>');
    expect(html).toContain('<h2 id="h-sources">Sources</h2>');
    const retitled = render("# A title of its own\n\nText.\n\n## Part", undefined, "Question?");
    expect(retitled).not.toContain("A title of its own");
    expect(retitled).toContain('<h2 id="h-part">Part</h2>');
  });

  it("demotes every heading when an H1 is not the report's first line, each with a unique id", () => {
    const html = render("Text.\n\n# Part\n\n## Detail\n\n# Part", undefined, "Question?");
    expect(html).not.toContain("<h1");
    expect(html).toContain('<h2 id="h-part">Part</h2>');
    expect(html).toContain('<h3 id="h-detail">Detail</h3>');
    expect(html).toContain('<h2 id="h-part-2">Part</h2>');
  });
});

describe("a partial report", () => {
  it("keeps its own notice, marked, once", () => {
    const md = "# Q\n\n> **Partial report.** Research was stopped early.\n\nText [1].";
    const html = render(md, citations, "Q", true);
    expect(html.match(/Partial report\./g)).toHaveLength(1);
    expect(html).toContain('<blockquote data-notice="partial">');
  });

  it("keeps a German or Chinese report's own notice, and adds none in another language", () => {
    for (const opening of ["Unvollständiger Bericht.", "不完整的报告。"]) {
      const html = render(`# Q\n\n> **${opening}** …\n\nText.`, undefined, "Q", true);
      expect(html).toMatch(
        new RegExp(`<blockquote data-notice="partial">\\s*<p><strong>${opening}</strong>`),
      );
      expect(html.match(/<blockquote/g)).toHaveLength(1);
      expect(html).not.toContain("Partial report.");
    }
  });

  it("gets one notice when its text has none", () => {
    const html = render("Text.", undefined, "Q", true);
    expect(html.match(/Partial report\./g)).toHaveLength(1);
    expect(render("Text.", undefined, "Q", false)).not.toContain("Partial report.");
  });
});

describe("bare URLs", () => {
  it("link only well-formed absolute web addresses with a real host", () => {
    const html = render(
      "See http://127 and https://intranet and http://127.0.0.1:3000/x and https://web.example/page and www.example.org.",
    );
    expect(html).not.toContain('href="http://127"');
    expect(html).not.toContain('href="https://intranet"');
    expect(html).toContain("http://127 and https://intranet and");
    expect(html).toContain('href="http://127.0.0.1:3000/x"');
    expect(html).toContain('href="https://web.example/page"');
    expect(html).toContain('href="http://www.example.org"');
  });

  it("keeps written links as their author wrote them", () => {
    expect(render("[the intranet](https://intranet)")).toContain('href="https://intranet"');
  });

  it("are judged by their host", () => {
    for (const ok of [
      "https://a.example",
      "http://localhost:3000/",
      "http://10.0.0.1/x",
      "https://xn--bcher-kva.example/a?b#c",
    ]) {
      expect(isWellFormedWebUrl(ok), ok).toBe(true);
    }
    for (const bad of [
      "http://127",
      "http://127.0.0",
      "https://foo",
      "http://999.1.1.1",
      "http://a.1",
      "http://-a.example",
    ]) {
      expect(isWellFormedWebUrl(bad), bad).toBe(false);
    }
  });
});

describe("the download's file name", () => {
  it("is a slug of the question", () => {
    expect(reportFilename("Heat pump or gas boiler for a typical home in a cold climate?")).toBe(
      "heat-pump-or-gas-boiler-for-a-typical-home-in-a-cold-climate.md",
    );
    expect(reportFilename("Wärmepumpe: Kosten & Nutzen (2031)")).toBe("warmepumpe-kosten-nutzen-2031.md");
    expect(reportFilename("???")).toBe("report.md");
    expect(reportFilename(`"quoted"; filename=evil.sh`)).toBe("quoted-filename-evil-sh.md");
    expect(reportFilename("a ".repeat(100)).length).toBeLessThanOrEqual(83);
  });
});
