import { describe, expect, it } from "vitest";
import type { DirectiveRecord } from "../../store.ts";
import type { DirectiveStatus, QualityTier } from "../../vocabulary.ts";
import type { DirectiveCoverage } from "./coverage.ts";
import { clearlyCovered, directiveGaps, heuristicFollowUps, rankGaps } from "./coverage-gaps.ts";

const settings = { gateMinQualitySources: 2, gateMinDomains: 2 };

function row(
  ordinal: number,
  o: Partial<Omit<DirectiveCoverage, "quality">> & { quality?: Partial<Record<QualityTier, number>> } = {},
): DirectiveCoverage {
  const quality = { HIGH: 0, MEDIUM: 0, LOW: 0, UNKNOWN: 0, ...o.quality };
  const read = quality.HIGH + quality.MEDIUM + quality.LOW + quality.UNKNOWN;
  return {
    directiveId: `d${ordinal}`,
    ordinal,
    round: 0,
    topic: `Topic ${ordinal}: battery storage costs per kWh in Germany`,
    status: "done" as DirectiveStatus,
    sourceCount: read,
    seenCount: read,
    uniqueDomains: read,
    domains: [],
    qualityDomains: quality.HIGH + quality.MEDIUM,
    citedCount: read,
    findingsExcerpt: "",
    ...o,
    quality,
  };
}

const covered = (ordinal: number) => row(ordinal, { quality: { HIGH: 1, MEDIUM: 1 } });

describe("directiveGaps", () => {
  it.each([
    ["clearly covered", covered(1), []],
    ["MEDIUM-only official docs from two domains", row(1, { quality: { MEDIUM: 2 } }), []],
    ["failed", row(1, { status: "failed" }), ["the research failed"]],
    ["five unread hits", row(1, { seenCount: 5 }), ["no source read (5 search hits seen, none opened)"]],
    [
      "UNKNOWN pages only",
      row(1, { quality: { UNKNOWN: 3 }, citedCount: 0 }),
      [
        "no HIGH-quality source",
        "quality sources from 0 domain(s), 2 wanted",
        "the findings cite none of the sources read",
      ],
    ],
    [
      "one HIGH source",
      row(1, { quality: { HIGH: 1 } }),
      ["only 1 HIGH/MEDIUM-quality source(s), 2 wanted", "one domain only"],
    ],
    [
      "two HIGH pages on one site",
      row(1, { quality: { HIGH: 2 }, uniqueDomains: 1, qualityDomains: 1 }),
      ["one domain only"],
    ],
  ] as const)("%s", (_what, r, gaps) => {
    expect(directiveGaps(r, settings)).toEqual(gaps);
  });
});

describe("clearlyCovered (the gate)", () => {
  it("holds only when every researched directive has no gap", () => {
    expect(clearlyCovered([covered(1), covered(2)], settings)).toBe(true);
    expect(clearlyCovered([covered(1), row(2, { seenCount: 5 })], settings)).toBe(false);
    expect(clearlyCovered([covered(1), row(2, { status: "failed" })], settings)).toBe(false);
  });

  it("ignores directives still pending, and needs something researched", () => {
    expect(clearlyCovered([covered(1), row(2, { status: "pending" })], settings)).toBe(true);
    expect(clearlyCovered([row(1, { status: "pending" })], settings)).toBe(false);
  });

  it("follows the configured thresholds", () => {
    const oneEach = row(1, { quality: { HIGH: 1 } });
    expect(clearlyCovered([oneEach], settings)).toBe(false);
    expect(clearlyCovered([oneEach], { gateMinQualitySources: 1, gateMinDomains: 1 })).toBe(true);
  });
});

describe("rankGaps and heuristicFollowUps", () => {
  const rows = [
    covered(1),
    row(2, { quality: { HIGH: 1 } }),
    row(3, { quality: { UNKNOWN: 1 } }),
    row(4, { status: "failed" }),
    row(5, { seenCount: 4 }),
  ];

  it("puts failures first, then nothing read, then missing quality before thin spread", () => {
    expect(rankGaps(rows, settings).map((r) => r.row.ordinal)).toEqual([4, 5, 3, 2, 1]);
  });

  it("carries each gap as a code with its figures, one for one with its English words", () => {
    const ranked = rankGaps(rows, settings);
    for (const r of ranked) expect(r.gapsBecause).toHaveLength(r.gaps.length);
    expect(ranked[0].gapsBecause).toEqual([{ code: "gap_failed" }]);
    expect(ranked[1].gapsBecause).toEqual([{ code: "gap_unread", values: { seen: 4 } }]);
    expect(ranked.at(-1)?.gapsBecause).toEqual([]);
    expect(ranked.flatMap((r) => r.gapsBecause.map((g) => g.code))).toContain("gap_no_high");
  });

  it("names at most `max` weak directives, worded from their gaps and evidence-needed", () => {
    const directives = new Map<string, DirectiveRecord>(
      rows.map((r) => [
        r.directiveId,
        {
          id: r.directiveId,
          ordinal: r.ordinal,
          round: 0,
          topic: r.topic,
          title: r.topic,
          perspective: "a homeowner's",
          evidenceNeeded: `installer quotes for directive ${r.ordinal}`,
          priority: "normal",
          origin: "supervisor",
          type: "initial",
          rationale: null,
          status: r.status,
          error: null,
        },
      ]),
    );
    const ranked = rankGaps(rows, settings);
    const two = heuristicFollowUps(ranked, directives, 2);
    expect(two.map((f) => f.directiveOrdinal)).toEqual([4, 5]);
    expect(heuristicFollowUps(ranked, directives, 10)).toHaveLength(4); // the covered one never
    expect(heuristicFollowUps(ranked, directives, 0)).toEqual([]);

    const [, , unknownOnly] = heuristicFollowUps(ranked, directives, 3);
    expect(unknownOnly.topic).toBe(
      "Topic 3: battery storage costs per kWh in Germany — official documentation, standards bodies, peer-reviewed papers or primary data",
    );
    expect(unknownOnly.perspective).toBe("a homeowner's");
    expect(unknownOnly.evidenceNeeded.split("\n")).toEqual([
      "installer quotes for directive 3",
      "Gap measured in directive 3: no HIGH-quality source; one domain only.",
      "Read (not only search) official documentation, standards bodies, peer-reviewed papers or primary data; independent sources from other publishers and organisations.",
    ]);
  });
});
