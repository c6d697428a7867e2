import { describe, expect, it } from "vitest";
import type { SourceRecord } from "../../store.ts";
import { parseLocalSourceList, stripBibliography } from "./bibliography.ts";
import { processReportCitations } from "./index.ts";
import { citationNumbersIn, parseCitationGroup, renumberLocalCitations } from "./markers.ts";
import { collectCitedSentences } from "./sentences.ts";
import { buildSourcesSection, urlKey } from "./source-list.ts";

function source(
  id: string,
  url: string,
  title: string,
  content: string | null = `Text of ${title}.`,
): SourceRecord {
  return {
    id,
    url,
    normalizedUrl: url,
    title,
    domain: new URL(url).hostname,
    provider: "test",
    quality: "MEDIUM",
    snippet: null,
    content,
  };
}

const A = source("a", "https://alpha.example/report", "Alpha report");
const B = source("b", "https://beta.example/study", "Beta study");
const C = source("c", "https://gamma.example/data", "Gamma data");
const D = source("d", "https://delta.example/page", "Delta page");
const NO_TEXT = source("n", "https://snippet-only.example/hit", "Snippet only", null);

describe("processReportCitations", () => {
  it("renumbers in reading order and appends exactly the cited sources, in that order", () => {
    const md = [
      "# Heat pumps",
      "",
      "Heat pumps are efficient [3]. They cost more upfront [1].",
      "",
      "## Costs",
      "",
      "Running costs are lower [3][4]. Installers agree [1].",
    ].join("\n");
    const r = processReportCitations(md, [A, B, C, D]);
    expect(r.markdown).toBe(
      [
        "# Heat pumps",
        "",
        "Heat pumps are efficient [1]. They cost more upfront [2].",
        "",
        "## Costs",
        "",
        "Running costs are lower [1][3]. Installers agree [2].",
        "",
        "## Sources",
        "",
        "[1] [Gamma data](https://gamma.example/data)",
        "",
        "[2] [Alpha report](https://alpha.example/report)",
        "",
        "[3] [Delta page](https://delta.example/page)",
        "",
      ].join("\n"),
    );
    expect(r.stats).toEqual({
      kept: 5,
      removedUnknown: 0,
      flattenedLinks: 0,
      correctedLinks: 0,
      strippedBibliography: false,
      citedSources: 3,
    });
    expect(r.citations).toEqual([
      { number: 1, sourceId: "c", sentence: "Heat pumps are efficient." },
      { number: 2, sourceId: "a", sentence: "They cost more upfront." },
      { number: 1, sourceId: "c", sentence: "Running costs are lower." },
      { number: 3, sourceId: "d", sentence: "Running costs are lower." },
      { number: 2, sourceId: "a", sentence: "Installers agree." },
    ]);
  });

  it("removes citations to unknown numbers and to sources without a text snapshot, and counts them", () => {
    const md = "First claim [9]. Second claim [2]. Third claim [1][9]. Fourth [0].";
    const r = processReportCitations(md, [A, NO_TEXT]);
    expect(r.markdown).toBe(
      "First claim. Second claim. Third claim [1]. Fourth.\n\n## Sources\n\n[1] [Alpha report](https://alpha.example/report)\n",
    );
    expect(r.stats.removedUnknown).toBe(4);
    expect(r.stats.kept).toBe(1);
    expect(r.citations).toEqual([{ number: 1, sourceId: "a", sentence: "Third claim." }]);
  });

  it("strips the bibliography the model wrote and replaces it with the one from the database", () => {
    const md = [
      "Body text [2].",
      "",
      "## References",
      "",
      "1. Beta study. https://beta.example/study",
      "2. Made-up paper. https://fake.example/paper",
    ].join("\n");
    const r = processReportCitations(md, [A, B]);
    expect(r.stats.strippedBibliography).toBe(true);
    expect(r.markdown).toBe("Body text [1].\n\n## Sources\n\n[1] [Beta study](https://beta.example/study)\n");
    expect(r.markdown).not.toContain("fake.example");
  });

  it("flattens links to pages that are not stored sources and keeps links to stored ones", () => {
    const md =
      "See [the Beta study](http://www.beta.example/study/) [2], [a blog](https://blog.example/post) " +
      "and ![chart](https://img.example/c.png).";
    const r = processReportCitations(md, [A, B]);
    expect(r.markdown).toBe(
      "See [the Beta study](http://www.beta.example/study/) [1], a blog and chart.\n\n" +
        "## Sources\n\n[1] [Beta study](https://beta.example/study)\n",
    );
    expect(r.stats.flattenedLinks).toBe(2);
  });

  it("handles grouped, adjacent, ranged and footnote-style citations", () => {
    const md = "One [1, 2]. Two [2][3]. Three [1-3]. Four [3; 1]. Five [^2]. Six [2] [1].";
    const r = processReportCitations(md, [A, B, C]);
    const body = r.markdown.split("\n\n## Sources")[0];
    expect(body).toBe("One [1][2]. Two [2][3]. Three [1][2][3]. Four [1][3]. Five [2]. Six [1][2].");
    expect(r.stats.kept).toBe(12);
    expect(r.stats.removedUnknown).toBe(0);
  });

  it("leaves year ranges, code and escaped brackets alone", () => {
    const md = "Between [1990-2030] prices rose [1]. Use `arr[2]` in code. A literal \\[5\\].";
    const r = processReportCitations(md, [A]);
    expect(r.markdown.split("\n\n## Sources")[0]).toBe(md);
    expect(r.stats.removedUnknown).toBe(0);
  });

  it("reads a citation written as a numbered link by its URL", () => {
    const r = processReportCitations(
      "Claim [4](https://beta.example/study). Other [5](https://nowhere.example).",
      [A, B],
    );
    // [4](beta) is source 2 by URL; [5](unknown) is flattened to [5], which is unknown and removed.
    expect(r.markdown.split("\n\n## Sources")[0]).toBe("Claim [1]. Other.");
    expect(r.stats.flattenedLinks).toBe(1);
    expect(r.stats.removedUnknown).toBe(1);
  });

  it("writes no Sources section when nothing is cited", () => {
    const r = processReportCitations(
      "Nothing cited here [7].\n\n## Sources\n\n[7] Whatever https://x.example",
      [A],
    );
    expect(r.markdown).toBe("Nothing cited here.\n");
    expect(r.stats).toMatchObject({
      kept: 0,
      removedUnknown: 1,
      citedSources: 0,
      strippedBibliography: true,
    });
  });

  it("leaves every [N] resolving to a Sources entry whose source has text", () => {
    const sources = [A, NO_TEXT, B, C, D];
    const md = [
      "# T",
      "Intro [Alpha report](https://alpha.example/report) [1] and [2]. More [5][17] [3-5].",
      "- item [4, 2]",
      "| col | cell [3] |",
      "Trailing [12]",
      "",
      "**Sources:**",
      "[1] https://alpha.example/report",
    ].join("\n");
    const r = processReportCitations(md, sources);
    const [body, list] = r.markdown.split("\n## Sources\n");
    const entries = [...list.matchAll(/^\[(\d+)\] \[[^\]]+\]\((.+)\)$/gm)].map((m) => ({
      n: Number(m[1]),
      url: m[2],
    }));
    expect(entries.map((e) => e.n)).toEqual(entries.map((_, i) => i + 1));
    for (const n of citationNumbersIn(body)) {
      const entry = entries.find((e) => e.n === n);
      expect(entry, `[${n}] has a Sources entry`).toBeDefined();
      const s = sources.find((x) => x.url === entry?.url);
      expect(s?.content?.trim()).toBeTruthy();
    }
    expect(r.stats.citedSources).toBe(entries.length);
  });

  it("escapes titles and URLs in the Sources section", () => {
    const odd = source("o", "https://wiki.example/Heat_(physics)", "Heat [physics] overview");
    expect(buildSourcesSection([odd])).toBe(
      "## Sources\n\n[1] [Heat \\[physics\\] overview](https://wiki.example/Heat_%28physics%29)\n",
    );
  });
});

describe("stripBibliography", () => {
  it("removes a section only up to the next heading of the same level", () => {
    const md = "## Findings\nText.\n### References\n[1] A https://a.example\n## Outlook\nMore.";
    expect(stripBibliography(md)).toEqual({
      markdown: "## Findings\nText.\n## Outlook\nMore.",
      stripped: true,
    });
  });

  it("removes a bold heading, reference definitions and a trailing bare list", () => {
    expect(stripBibliography("Text.\n\n**Sources**\n- https://a.example\n- https://b.example").markdown).toBe(
      "Text.",
    );
    expect(stripBibliography("Text [a].\n\n[a]: https://a.example\n").markdown).toBe("Text [a].");
    expect(
      stripBibliography("Text.\n\n---\n\n[1] A — https://a.example\n[2] [B](https://b.example)").markdown,
    ).toBe("Text.");
  });

  it("recognises bibliography headings in other languages and keeps ordinary closing lists", () => {
    expect(stripBibliography("Text.\n\n## Quellen\n\n[1] https://a.example").markdown).toBe("Text.");
    expect(stripBibliography("Texte.\n\n## 6. Références :\n\n- https://a.example").markdown).toBe("Texte.");
    const closing = "## Next steps\n\n1. [Try the calculator](https://alpha.example/report) first.";
    expect(stripBibliography(closing)).toEqual({ markdown: closing, stripped: false });
  });
});

describe("citation helpers", () => {
  it("parses marker groups and refuses non-citations", () => {
    expect(parseCitationGroup("1, 3-5")).toEqual([1, 3, 4, 5]);
    expect(parseCitationGroup("2; ^4")).toEqual([2, 4]);
    expect(parseCitationGroup("5-3")).toBeUndefined();
    expect(parseCitationGroup("1990-2030")).toBeUndefined();
    expect(parseCitationGroup("a")).toBeUndefined();
  });

  it("compares URLs without scheme, www, fragment, trailing slash or tracking parameters", () => {
    expect(urlKey("http://www.Example.org/a/?utm_source=x&b=2#top")).toBe(
      urlKey("https://example.org/a?b=2"),
    );
    expect(urlKey("https://example.org/a")).not.toBe(urlKey("https://example.org/b"));
  });

  it("finds the sentence around a marker, before or after the full stop", () => {
    expect(collectCitedSentences("First one. Second *one* is [here](https://x.example) [1]. Third.")).toEqual(
      [{ number: 1, sentence: "Second one is here." }],
    );
    expect(collectCitedSentences("Alpha beta.[2] Gamma.")).toEqual([{ number: 2, sentence: "Alpha beta." }]);
    expect(collectCitedSentences("- **Cost:** about 10% less [3]")).toEqual([
      { number: 3, sentence: "Cost: about 10% less" },
    ]);
  });
});

describe("researchers' local numbering", () => {
  const findings = [
    "## Findings",
    "Heat pumps cut emissions by 60% [1]. Costs vary [2][3].",
    "",
    "## Supervisor brief",
    "Covered: costs [2].",
    "",
    "## Sources",
    "[1] Gamma data — https://gamma.example/data",
    "[2] [Alpha report](https://alpha.example/report)",
    "[3] Unstored page — https://unstored.example/x",
  ].join("\n");

  it("reads the local source list from its section and returns the findings without it", () => {
    const { urls, body } = parseLocalSourceList(findings);
    expect([...urls]).toEqual([
      [1, "https://gamma.example/data"],
      [2, "https://alpha.example/report"],
      [3, "https://unstored.example/x"],
    ]);
    expect(body).not.toContain("## Sources");
    expect(body).toContain("Covered: costs [2].");
  });

  it("reads bracketed entry lines when there is no section heading", () => {
    const { urls, body } = parseLocalSourceList("Claim [1].\n\n[1] Alpha — https://alpha.example/report");
    expect(urls.get(1)).toBe("https://alpha.example/report");
    expect(body).toBe("Claim [1].");
  });

  it("rewrites local numbers to run-wide ones and removes those that do not map", () => {
    const { body } = parseLocalSourceList(findings);
    const global = new Map([
      [1, 3],
      [2, 1],
    ]);
    const r = renumberLocalCitations(body, (k) => global.get(k));
    expect(r.text).toContain("Heat pumps cut emissions by 60% [3]. Costs vary [1].");
    expect(r.text).toContain("Covered: costs [1].");
    expect(r).toMatchObject({ mapped: 3, dropped: 1 });
  });
});
