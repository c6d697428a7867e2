// The run page's Sources panel: cited sources by their report number, apart from those read in
// full but not cited and those only found; quality and "read in full" in words.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { withMessages } from "../../test/support/intl.ts";
import { matchesSource, sourceVerdicts } from "../run/sources-filter.ts";
import { groupSources, SourcesPanel } from "../run/sources-panel.tsx";
import type { RunViewJson } from "../run/types";

const source = (id: string, readInFull: boolean, quality = "HIGH") => ({
  id,
  url: `https://${id}.example/page`,
  title: `Page ${id}`,
  domain: `${id}.example`,
  provider: "searxng",
  quality,
  readInFull,
});
const run = {
  sources: [source("a", true), source("b", true, "LOW"), source("c", false), source("d", true, "MEDIUM")],
  citations: [
    { number: 2, sourceId: "a", sentence: "x", support: "supported", reason: null },
    { number: 1, sourceId: "d", sentence: "y", support: "unchecked", reason: null },
    { number: 1, sourceId: "d", sentence: "z", support: "supported", reason: null },
  ],
} as unknown as RunViewJson;

describe("the Sources panel", () => {
  it("groups cited (by number), read but not cited, and found but not read", () => {
    const { cited, read, found } = groupSources(run);
    expect(cited.map(({ n, source: s }) => [n, s.id])).toEqual([
      [1, "d"],
      [2, "a"],
    ]);
    expect(read.map((s) => s.id)).toEqual(["b"]);
    expect(found.map((s) => s.id)).toEqual(["c"]);
  });

  it("says quality and reading in words, and draws no remote icon", () => {
    const html = renderToStaticMarkup(withMessages(createElement(SourcesPanel, { run })));
    expect(html).toContain("Cited in the report");
    expect(html).toContain("Read but not cited");
    expect(html).toContain("Found but not read");
    expect(html).toContain("Medium quality · read in full");
    expect(html).toContain("Low quality · read in full");
    // Tiers in words (the filter's option values are the tiers' codes).
    expect(html).not.toMatch(/>HIGH|>MEDIUM|Sources gathered|<img/);
    expect(html).toContain("4 of 4 sources shown");
  });

  it("filters by search words, the weakest citation verdict and quality", () => {
    const verdicts = sourceVerdicts(run.citations);
    // d has a supported and an unchecked claim: it counts as unchecked (never overstated).
    expect(Object.fromEntries(verdicts)).toEqual({ a: "supported", d: "unchecked" });
    const pick = (filter: Parameters<typeof matchesSource>[2]) =>
      run.sources.filter((s) => matchesSource(s, verdicts.get(s.id), filter)).map((s) => s.id);
    expect(pick({ query: "", verdict: "", quality: "" })).toEqual(["a", "b", "c", "d"]);
    expect(pick({ query: "B.EXAMPLE", verdict: "", quality: "" })).toEqual(["b"]);
    expect(pick({ query: "", verdict: "unchecked", quality: "" })).toEqual(["d"]);
    expect(pick({ query: "", verdict: "uncited", quality: "" })).toEqual(["b", "c"]);
    expect(pick({ query: "", verdict: "uncited", quality: "HIGH" })).toEqual(["c"]);
    expect(pick({ query: "page", verdict: "supported", quality: "LOW" })).toEqual([]);
  });
});
