import { describe, expect, it } from "vitest";
import type { DirectiveRecord, DirectiveSourceRecord } from "../../store.ts";
import type { DirectiveStatus } from "../../vocabulary.ts";
import {
  COVERAGE_WEIGHTS,
  computeCoverage,
  directiveCoverage,
  excerpt,
  heuristicConfidence,
} from "./coverage.ts";

const settings = { minSourcesPerQuery: 2, coverageThreshold: 0.75 };

function directive(id: string, status: DirectiveStatus = "done", ordinal = 1): DirectiveRecord {
  return {
    id,
    ordinal,
    round: 0,
    topic: `topic ${id}`,
    title: "A directive",
    perspective: null,
    evidenceNeeded: null,
    priority: "normal",
    origin: "supervisor",
    type: "initial",
    rationale: null,
    status,
    error: null,
  };
}

function source(
  domain: string,
  quality: DirectiveSourceRecord["quality"] = "HIGH",
  n = 0,
  read = true,
): DirectiveSourceRecord {
  const url = `https://${domain}/p${n}`;
  return {
    read,
    id: url,
    url,
    normalizedUrl: url,
    title: "t",
    domain,
    provider: "fake",
    quality,
    snippet: null,
    content: null,
  };
}

/** A coverage row with the given numbers (status done unless given). */
function row(sourceCount: number, uniqueDomains: number, status: DirectiveStatus = "done") {
  const d = directive(`d${sourceCount}-${uniqueDomains}-${status}`, status);
  const sources = Array.from({ length: sourceCount }, (_, i) =>
    source(`site${i % Math.max(1, uniqueDomains)}.org`, "HIGH", i),
  );
  return directiveCoverage(d, sources, undefined);
}

describe("heuristicConfidence", () => {
  it("weighs adequacy 0.5, diversity 0.2, completion 0.3", () => {
    expect(
      COVERAGE_WEIGHTS.sourceAdequacy + COVERAGE_WEIGHTS.domainDiversity + COVERAGE_WEIGHTS.completionRate,
    ).toBe(1);
  });

  // [description, rows, expected confidence, adequacy, diversity, completion, sufficient]
  const cases: [string, ReturnType<typeof row>[], number, number, number, number, boolean][] = [
    ["everything adequate", [row(2, 2), row(3, 3)], 1, 1, 1, 1, true],
    ["one thin directive caps adequacy (MIN)", [row(4, 4), row(1, 1)], 0.7, 0.5, 0.75, 1, false],
    ["one thin, one single-domain", [row(2, 1), row(1, 1)], 0.65, 0.5, 0.5, 1, false],
    ["many pages from one site", [row(5, 1), row(5, 1)], 0.9, 1, 0.5, 1, true],
    ["a failed directive with nothing", [row(2, 2), row(0, 0, "failed")], 0.25, 0, 0.5, 0.5, false],
    ["adequacy capped at 1 per directive", [row(10, 10)], 1, 1, 1, 1, true],
    ["nothing attempted yet", [row(0, 0, "pending")], 0, 0, 0, 0, false],
  ];
  it.each(cases)(
    "%s",
    (_name, rows, confidence, sourceAdequacy, domainDiversity, completionRate, sufficient) => {
      expect(heuristicConfidence(rows, settings)).toMatchObject({
        confidence,
        sourceAdequacy,
        domainDiversity,
        completionRate,
        sufficient,
      });
    },
  );

  it("ignores directives not yet run", () => {
    const h = heuristicConfidence([row(2, 2), row(0, 0, "pending"), row(0, 0, "running")], settings);
    expect(h).toMatchObject({ confidence: 1, attempted: 1 });
  });

  it("uses the configured minimum and threshold", () => {
    expect(
      heuristicConfidence([row(2, 2)], { minSourcesPerQuery: 4, coverageThreshold: 0.75 }),
    ).toMatchObject({
      sourceAdequacy: 0.5,
      domainDiversity: 0.5,
      confidence: 0.65,
      sufficient: false,
    });
    expect(
      heuristicConfidence([row(2, 2)], { minSourcesPerQuery: 4, coverageThreshold: 0.6 }).sufficient,
    ).toBe(true);
  });
});

describe("directiveCoverage", () => {
  it("counts read sources, their quality distribution and unique domains (case-insensitive)", () => {
    const c = directiveCoverage(
      directive("x"),
      [
        source("nature.com", "HIGH", 1),
        source("Nature.com", "HIGH", 2),
        source("reddit.com", "LOW"),
        source("blog.example", "UNKNOWN"),
        source("unread.org", "HIGH", 3, false),
      ],
      "Findings text citing https://nature.com/p1 and https://unread.org/p3",
    );
    expect(c).toMatchObject({
      sourceCount: 4,
      seenCount: 5,
      quality: { HIGH: 2, MEDIUM: 0, LOW: 1, UNKNOWN: 1 },
      uniqueDomains: 3,
      domains: ["blog.example", "nature.com", "reddit.com"],
      qualityDomains: 1,
      // Only read sources count as cited: the unread hit's URL in the text does not.
      citedCount: 1,
      findingsExcerpt: "Findings text citing https://nature.com/p1 and https://unread.org/p3",
    });
  });
});

describe("computeCoverage", () => {
  it("leaves skipped directives out and carries the run's source total", () => {
    const a = directive("a", "done", 1);
    const b = directive("b", "skipped", 2);
    const report = computeCoverage(
      {
        directives: [a, b],
        sourcesByDirective: new Map([["a", [source("x.org"), source("y.org")]]]),
        findingsByDirective: new Map([["a", "found it"]]),
        seenSources: 2,
      },
      settings,
    );
    expect(report.directives.map((d) => d.directiveId)).toEqual(["a"]);
    expect(report.totalSources).toBe(2);
    expect(report.heuristic.confidence).toBe(1);
  });

  it("does not count a directive with five unread search hits as covered", () => {
    const hits = ["a.org", "b.org", "c.org", "d.org", "e.org"].map((d, i) => source(d, "HIGH", i, false));
    const report = computeCoverage(
      {
        directives: [directive("a")],
        sourcesByDirective: new Map([["a", hits]]),
        findingsByDirective: new Map([["a", "nothing was read"]]),
        seenSources: 5,
      },
      settings,
    );
    expect(report.directives[0]).toMatchObject({
      sourceCount: 0,
      seenCount: 5,
      quality: { HIGH: 0, MEDIUM: 0, LOW: 0, UNKNOWN: 0 },
      uniqueDomains: 0,
    });
    // The run saw five sources but read none: the no-new-sources rule counts the read ones.
    expect(report.totalSources).toBe(0);
    expect(report.seenSources).toBe(5);
    expect(report.heuristic.sourceAdequacy).toBe(0);
    expect(report.heuristic.sufficient).toBe(false);
  });

  it("counts a source read by two directives once in the run's total", () => {
    const shared = source("x.org", "HIGH", 1);
    const report = computeCoverage(
      {
        directives: [directive("a", "done", 1), directive("b", "done", 2)],
        sourcesByDirective: new Map([
          ["a", [shared, source("y.org", "HIGH", 2, false)]],
          ["b", [shared]],
        ]),
        findingsByDirective: new Map(),
        seenSources: 2,
      },
      settings,
    );
    expect(report.totalSources).toBe(1);
  });
});

describe("excerpt", () => {
  it("flattens whitespace and cuts at a word boundary", () => {
    expect(excerpt("a  b\n\nc")).toBe("a b c");
    const long = "word ".repeat(200);
    const e = excerpt(long, 50);
    expect(e.length).toBeLessThanOrEqual(51);
    expect(e.endsWith("word…")).toBe(true);
  });
});
