import { describe, expect, it } from "vitest";
import { createNoveltyTracker, type NoveltyInput, overlapRatio, titleSimilarity } from "./novelty.ts";

const r = (url: string, title: string, knownInRun = false): NoveltyInput => ({
  normalizedUrl: url,
  domain: new URL(url).hostname,
  title,
  knownInRun,
});

describe("novelty", () => {
  it("marks the first search's results new, even several from one site", () => {
    const t = createNoveltyTracker();
    const n = t.assess([r("https://a.org/1", "One"), r("https://a.org/2", "Two")]);
    expect(n.verdicts.map((v) => v.mark)).toEqual(["new", "new"]);
    expect(n).toMatchObject({ fresh: 2, related: 0, duplicates: 0, overlapWithPrevious: 0 });
  });

  it("marks duplicates, same-domain and similar-title results against earlier searches", () => {
    const t = createNoveltyTracker();
    t.assess([r("https://a.org/1", "Global solar capacity report"), r("https://b.org/1", "Wind outlook")]);
    const n = t.assess([
      r("https://a.org/1", "Global solar capacity report"),
      r("https://a.org/9", "Unrelated title"),
      r("https://c.org/1", "Global solar capacity report 2025"),
      r("https://d.org/1", "Battery storage costs"),
      r("https://e.org/1", "Known elsewhere in the run", true),
    ]);
    expect(n.verdicts).toEqual([
      { mark: "duplicate" },
      { mark: "related", relatedTo: "a.org" },
      { mark: "related", relatedTo: "Global solar capacity report" },
      { mark: "new" },
      { mark: "duplicate" },
    ]);
    expect(n).toMatchObject({ fresh: 1, related: 2, duplicates: 2 });
    expect(n.overlapWithPrevious).toBeCloseTo(1 / 5);
  });

  it("measures how much a search repeats the one before it", () => {
    const t = createNoveltyTracker();
    t.assess([r("https://a.org/1", "A"), r("https://b.org/1", "B")]);
    expect(t.assess([r("https://a.org/1", "A"), r("https://b.org/1", "B")]).overlapWithPrevious).toBe(1);
    expect(t.assess([r("https://z.org/1", "Z")]).overlapWithPrevious).toBe(0);
  });

  it("compares titles by their word sets", () => {
    expect(titleSimilarity("Solar PV report", "solar pv REPORT!")).toBe(1);
    expect(titleSimilarity("Solar PV report", "Wind turbines")).toBe(0);
    expect(titleSimilarity("", "anything")).toBe(0);
    expect(overlapRatio(["a", "b"], ["b", "c"])).toBe(0.5);
    expect(overlapRatio(["a"], [])).toBe(0);
  });
});
