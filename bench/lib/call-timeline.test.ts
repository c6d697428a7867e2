import { describe, expect, it } from "vitest";
import { benchScript } from "./bench-script.ts";
import { criticalPath, gapsByTransition, pathGaps, type TimedCall, unionLength } from "./call-timeline.ts";

const serial = (label: string, at: number, endedAt: number): TimedCall => ({
  label,
  lane: "serial",
  at,
  endedAt,
});
const lane = (label: string, l: string, round: number, at: number, endedAt: number): TimedCall => ({
  label,
  lane: l,
  round,
  at,
  endedAt,
});

describe("unionLength", () => {
  it("counts overlapping and nested intervals once and adds disjoint ones", () => {
    const intervals = [
      { at: 0, endedAt: 100 },
      { at: 50, endedAt: 150 },
      { at: 60, endedAt: 70 },
      { at: 200, endedAt: 300 },
    ];
    expect(unionLength(intervals)).toBe(250);
  });

  it("clips to the window and drops what lies outside it", () => {
    const intervals = [
      { at: -50, endedAt: 50 },
      { at: 80, endedAt: 120 },
      { at: 500, endedAt: 600 },
    ];
    expect(unionLength(intervals, 0, 100)).toBe(70);
    expect(unionLength([])).toBe(0);
  });
});

describe("criticalPath", () => {
  // A synthetic run: brief and plan, one round of two researchers (B slower), assessment, a
  // follow-up round of one researcher, synthesis; plus an unattributed call.
  const calls: TimedCall[] = [
    serial("brief", 10, 310),
    serial("plan", 330, 630),
    lane("researcher r0:d1", "r0:d1", 0, 650, 950),
    lane("search r0:d1", "r0:d1", 0, 960, 1060),
    lane("compression r0:d1", "r0:d1", 0, 1070, 1370),
    lane("researcher r0:d2", "r0:d2", 0, 650, 950),
    lane("search r0:d2", "r0:d2", 0, 955, 1055),
    lane("fetch r0:d2", "r0:d2", 0, 1060, 1160),
    lane("compression r0:d2", "r0:d2", 0, 1200, 1500),
    serial("assessment", 1550, 1850),
    lane("researcher r1:d1", "r1:d1", 1, 1900, 2200),
    serial("synthesis", 2250, 2550),
    { label: "summarize", lane: "other", at: 700, endedAt: 800 },
  ];

  it("adds the serial calls and each round's slowest researcher", () => {
    const r = criticalPath(calls);
    expect(r.serialMs).toBe(1200);
    expect(r.rounds).toEqual([
      { round: 0, lane: "r0:d2", chainMs: 800, researchers: 2 },
      { round: 1, lane: "r1:d1", chainMs: 300, researchers: 1 },
    ]);
    expect(r.chainMs).toBe(2300);
    expect(r.path.map((c) => c.label)).toEqual([
      "brief",
      "plan",
      "researcher r0:d2",
      "search r0:d2",
      "fetch r0:d2",
      "compression r0:d2",
      "assessment",
      "researcher r1:d1",
      "synthesis",
    ]);
  });

  it("counts serial calls that overlap once, with the longest", () => {
    const r = criticalPath([serial("a", 0, 300), serial("b", 100, 500), serial("c", 600, 700)]);
    expect(r.chainMs).toBe(500);
  });

  it("names the gaps on the path, from the POST to the terminal event", () => {
    const r = criticalPath(calls);
    const gaps = pathGaps(r.path, 0, 2600);
    expect(gaps.reduce((n, g) => n + g.ms, 0)).toBe(2600 - 2300);
    expect(gaps[0]).toEqual({ ms: 10, after: "POST", before: "brief", offset: 0 });
    expect(gaps.at(-1)).toEqual({ ms: 50, after: "synthesis", before: "terminal event", offset: 2550 });
    expect(gaps.find((g) => g.before === "compression r0:d2")?.ms).toBe(40);
    const byKind = gapsByTransition(gaps);
    expect(byKind[0]).toEqual({ transition: "compression → assessment", count: 1, totalMs: 50 });
    expect(byKind.find((k) => k.transition === "researcher → search")).toEqual({
      transition: "researcher → search",
      count: 1,
      totalMs: 5,
    });
  });
});

describe("benchScript", () => {
  it("gives every researcher its own rules, query and page, and attributes web requests to it", () => {
    const s = benchScript({ webUrl: "http://127.0.0.1:9", rounds: 3, perRound: 5 });
    expect(s.researchers).toHaveLength(15);
    expect(new Set(s.researchers.map((r) => r.topic)).size).toBe(15);
    const r = s.researchers[7];
    const search = `/search?q=${encodeURIComponent(r.query)}&format=json&pageno=1`;
    expect(s.laneOfWebPath(search)).toBe(r.lane);
    expect(s.laneOfWebPath(new URL(r.url).pathname + new URL(r.url).search)).toBe(r.lane);
    expect(s.laneOfWebPath("/pages/heat-pump-efficiency-cop.html")).toBeUndefined();
    const names = s.rules.map((rule) => rule.name);
    expect(names).toContain(`researcher:${r.lane}`);
    expect(names).toContain(`compression:${r.lane}`);
    // Two follow-up rounds, then the assessment that stops.
    const assessment = s.rules.find((rule) => rule.name === "assessment");
    expect(assessment?.replies).toHaveLength(3);
  });
});
