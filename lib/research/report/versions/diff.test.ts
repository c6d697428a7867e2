import { describe, expect, it } from "vitest";
import { extractClaims, reportBody } from "./claims.ts";
import { CLAIM_MATCH_THRESHOLD, diffReports, type ReportVersion, versionsDiffer } from "./diff.ts";
import { claimWords, dice } from "./words.ts";

const GUIDE = "https://energy.example/guide";
const STUDY = "https://study.example/nordic";
const SURVEY = "https://survey.example/installers";

function version(body: string, sources: [string, string | null][]): ReportVersion {
  const list = sources.map(([url], i) => `[${i + 1}] [Source ${i + 1}](${url})`).join("\n\n");
  return {
    markdown: `# Heat pumps\n\n${body}\n\n## Sources\n\n${list}\n`,
    sources: sources.map(([url, textHash], i) => ({
      number: i + 1,
      url,
      title: `Source ${i + 1}`,
      textHash,
    })),
  };
}

const BASE = version(
  [
    "Modern air-source heat pumps keep most of their efficiency well below freezing [1].",
    "",
    "In the 2023 field study, emissions fell by 60 percent after the switch [1][2].",
    "",
    "- Backup resistance heat is rarely needed in practice [3].",
  ].join("\n"),
  [
    [GUIDE, "h-guide"],
    [STUDY, "h-study"],
    [SURVEY, "h-survey"],
  ],
);

describe("claims of a report", () => {
  it("are its cited sentences with the URLs of their sources, the Sources list left out", () => {
    const byNumber = new Map(BASE.sources.map((s) => [s.number, s.url]));
    const claims = extractClaims(BASE.markdown, (n) => byNumber.get(n));
    expect(claims).toEqual([
      {
        text: "Modern air-source heat pumps keep most of their efficiency well below freezing.",
        sources: [GUIDE],
      },
      {
        text: "In the 2023 field study, emissions fell by 60 percent after the switch.",
        sources: [GUIDE, STUDY].sort(),
      },
      { text: "Backup resistance heat is rarely needed in practice.", sources: [SURVEY] },
    ]);
  });

  it("keep a report whose last section is not a sources list whole", () => {
    const md = "Intro [1].\n\n## Costs\n\nPrices vary [2].\n";
    expect(reportBody(md)).toBe(md);
    expect(reportBody("A [1].\n\n## Sources\n\n1. [A](https://a.example)\n")).toBe("A [1].\n");
  });
});

describe("the diff of two versions", () => {
  it("is empty for the same report, and the versions do not differ", () => {
    const diff = diffReports(BASE, BASE);
    expect(diff).toEqual({
      claims: { added: [], removed: [], changed: [] },
      sources: { added: [], removed: [], changed: [] },
    });
    expect(versionsDiffer(diff)).toBe(false);
  });

  it("treats a reworded claim with the same figures and sources as the same claim", () => {
    const reworded = version(
      [
        "Air-source heat pumps retain most of their efficiency well below freezing [1].",
        "",
        "Emissions fell by 60 percent after the switch in the 2023 field study [1][2].",
        "",
        "- Backup resistance heat is rarely needed in practice [3].",
      ].join("\n"),
      [
        [GUIDE, "h-guide"],
        [STUDY, "h-study"],
        [SURVEY, "h-survey"],
      ],
    );
    expect(versionsDiffer(diffReports(BASE, reworded))).toBe(false);
  });

  it("makes a changed figure a changed claim with its before and after", () => {
    const after = version(
      BASE.markdown
        .split("\n\n## Sources")[0]
        .replace("# Heat pumps\n\n", "")
        .replace("60 percent", "45 percent"),
      [
        [GUIDE, "h-guide"],
        [STUDY, "h-study-2"],
        [SURVEY, "h-survey"],
      ],
    );
    const diff = diffReports(BASE, after);
    expect(diff.claims.changed).toEqual([
      {
        before: {
          text: "In the 2023 field study, emissions fell by 60 percent after the switch.",
          sources: [GUIDE, STUDY],
        },
        after: {
          text: "In the 2023 field study, emissions fell by 45 percent after the switch.",
          sources: [GUIDE, STUDY],
        },
      },
    ]);
    expect(diff.claims.added).toEqual([]);
    expect(diff.claims.removed).toEqual([]);
    expect(diff.sources.changed).toEqual([{ url: STUDY, title: "Source 2" }]);
    expect(versionsDiffer(diff)).toBe(true);
  });

  it("lists a new sentence as added, a dropped one as removed, and cited sources by URL", () => {
    const after = version(
      [
        "Modern air-source heat pumps keep most of their efficiency well below freezing [1].",
        "",
        "In the 2023 field study, emissions fell by 60 percent after the switch [1][3].",
        "",
        "Ground-source systems cost roughly twice as much to install [2].",
      ].join("\n"),
      [
        [GUIDE, "h-guide"],
        ["https://costs.example/ground", "h-costs"],
        [STUDY, "h-study"],
      ],
    );
    const diff = diffReports(BASE, after);
    expect(diff.claims.added).toEqual([
      {
        text: "Ground-source systems cost roughly twice as much to install.",
        sources: ["https://costs.example/ground"],
      },
    ]);
    expect(diff.claims.removed).toEqual([
      { text: "Backup resistance heat is rarely needed in practice.", sources: [SURVEY] },
    ]);
    // Renumbered ([2] became [3]) but the same URLs: the same claim.
    expect(diff.claims.changed).toEqual([]);
    expect(diff.sources.added).toEqual([{ url: "https://costs.example/ground", title: "Source 2" }]);
    expect(diff.sources.removed).toEqual([{ url: SURVEY, title: "Source 3" }]);
    expect(diff.sources.changed).toEqual([]);
  });

  it("makes a claim citing another source a changed claim, and compares URLs by their identity", () => {
    const after = version(BASE.markdown.split("\n\n## Sources")[0].replace("# Heat pumps\n\n", ""), [
      ["https://www.energy.example/guide/", "h-guide"],
      [STUDY, "h-study"],
      ["https://survey.example/other", "h-other"],
    ]);
    const diff = diffReports(BASE, after);
    expect(diff.claims.changed.map((c) => c.after.sources)).toEqual([["https://survey.example/other"]]);
    expect(diff.sources.added.map((s) => s.url)).toEqual(["https://survey.example/other"]);
    expect(diff.sources.removed.map((s) => s.url)).toEqual([SURVEY]);
  });

  it("does not call a source changed when a version kept no text of it", () => {
    const after = version(BASE.markdown.split("\n\n## Sources")[0].replace("# Heat pumps\n\n", ""), [
      [GUIDE, null],
      [STUDY, "h-study"],
      [SURVEY, "h-survey"],
    ]);
    expect(diffReports(BASE, after).sources.changed).toEqual([]);
  });

  it("handles Chinese and German reports", () => {
    const zh = (n: string) =>
      version(`热泵在零下十五度时仍保持${n}%的输出功率 [1]。\n\n安装质量和设备一样重要 [1]。`, [
        [GUIDE, "h"],
      ]);
    const zhDiff = diffReports(zh("90"), zh("80"));
    expect(zhDiff.claims.changed).toHaveLength(1);
    expect(zhDiff.claims.changed[0].after.text).toContain("80%");
    expect(diffReports(zh("90"), zh("90")).claims.changed).toEqual([]);

    const de = (n: string) =>
      version(
        `Wärmepumpen behalten bei −15 °C noch ${n} Prozent ihrer Leistung [1].\n\nDie Größe der Anlage zählt [1].`,
        [[GUIDE, "h"]],
      );
    expect(diffReports(de("1.200,5"), de("1.200,5")).claims.changed).toEqual([]);
    expect(diffReports(de("90"), de("85")).claims.changed).toHaveLength(1);
  });

  it("is the same diff, in the same order, however often it is computed", () => {
    const after = version(
      [
        "A first new claim about heat [1].",
        "",
        "A second new claim about cold [1].",
        "",
        "Backup resistance heat is rarely needed in practice [3].",
      ].join("\n"),
      [
        [GUIDE, "x"],
        [STUDY, "y"],
        [SURVEY, "z"],
      ],
    );
    const first = diffReports(BASE, after);
    expect(first.claims.added.map((c) => c.text)).toEqual([
      "A first new claim about heat.",
      "A second new claim about cold.",
    ]);
    expect(first.claims.removed.map((c) => c.text)).toEqual([
      "Modern air-source heat pumps keep most of their efficiency well below freezing.",
      "In the 2023 field study, emissions fell by 60 percent after the switch.",
    ]);
    for (let k = 0; k < 3; k++) expect(diffReports(BASE, after)).toEqual(first);
  });

  it("pairs claims of figures alone (a table cell) and calls a new figure a change", () => {
    const table = (cop: string) =>
      version(`| Climate | COP |\n| --- | --- |\n| Cold | ${cop} [1] |`, [[GUIDE, "h"]]);
    const diff = diffReports(table("2.8"), table("2.5"));
    expect(diff.claims.changed).toEqual([
      { before: { text: "2.8", sources: [GUIDE] }, after: { text: "2.5", sources: [GUIDE] } },
    ]);
  });

  it("pairs each claim once, the closest first", () => {
    const before = version("The pump keeps 90 percent of its output at minus fifteen degrees [1].", [
      [GUIDE, "h"],
    ]);
    const after = version(
      [
        "The pump keeps 90 percent of its output at minus fifteen degrees [1].",
        "",
        "The pump keeps 70 percent of its output at minus fifteen degrees [1].",
      ].join("\n"),
      [[GUIDE, "h"]],
    );
    const diff = diffReports(before, after);
    expect(diff.claims.changed).toEqual([]);
    expect(diff.claims.added.map((c) => c.text)).toEqual([
      "The pump keeps 70 percent of its output at minus fifteen degrees.",
    ]);
  });
});

describe("claim words", () => {
  it("fold case and width, keep figures apart, and split unspaced scripts into characters", () => {
    expect(claimWords("Heat Pumps keep 1,200 W").figures).toEqual(["1200"]);
    expect([...claimWords("Heat Pumps keep 1,200 W").words]).toEqual(["heat", "pumps", "keep", "w"]);
    expect([...claimWords("热泵很好").words]).toEqual(["热", "泵", "很", "好"]);
    expect(claimWords("").key).toBe("");
  });

  it("measure overlap with the Dice coefficient against the stated threshold", () => {
    expect(dice(new Set(["a", "b"]), new Set(["a", "b"]))).toBe(1);
    expect(dice(new Set(["a", "b", "c", "d"]), new Set(["a", "b", "e", "f"]))).toBe(0.5);
    expect(CLAIM_MATCH_THRESHOLD).toBe(0.6);
  });
});
