// The run page's Sources panel: cited sources by their report number, apart from those read in
// full but not cited and those only found; quality and "read in full" in words.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
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
    const html = renderToStaticMarkup(createElement(SourcesPanel, { run }));
    expect(html).toContain("Cited in the report");
    expect(html).toContain("Read but not cited");
    expect(html).toContain("Found but not read");
    expect(html).toContain("Medium quality · read in full");
    expect(html).toContain("Low quality · read in full");
    expect(html).not.toMatch(/HIGH|MEDIUM|Sources gathered|<img/);
  });
});
