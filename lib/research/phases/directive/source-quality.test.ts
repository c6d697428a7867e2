import { describe, expect, it } from "vitest";
import { classifySourceQuality } from "./source-quality.ts";

describe("classifySourceQuality", () => {
  it.each([
    // government, education, intergovernmental — generic and country forms
    ["https://www.energy.gov/eere/solar", "HIGH"],
    ["https://www.gov.uk/guidance/x", "HIGH"],
    ["https://www.ox.ac.uk/research", "HIGH"],
    ["https://www.anu.edu.au/x", "HIGH"],
    ["https://mit.edu/x", "HIGH"],
    ["https://www.who.int/news", "HIGH"],
    ["https://www.army.mil/x", "HIGH"],
    ["https://www.service-public.gouv.fr/x", "HIGH"],
    // journals, publishers, preprints, indexes
    ["https://www.nature.com/articles/s41586", "HIGH"],
    ["https://www.science.org/doi/10.1126/x", "HIGH"],
    ["https://pubmed.ncbi.nlm.nih.gov/123", "HIGH"],
    ["https://arxiv.org/abs/2401.00001", "HIGH"],
    ["https://doi.org/10.1000/182", "HIGH"],
    // standards bodies and international organisations
    ["https://www.iso.org/standard/1.html", "HIGH"],
    ["https://datatracker.ietf.org/doc/rfc9110/", "HIGH"],
    ["https://www.w3.org/TR/html/", "HIGH"],
    ["https://data.oecd.org/x", "HIGH"],
    ["https://eur-lex.europa.eu/x", "HIGH"],
    // encyclopedias, news, documentation, the library
    ["https://en.wikipedia.org/wiki/Solar_cell", "MEDIUM"],
    ["https://www.britannica.com/x", "MEDIUM"],
    ["https://www.reuters.com/business/x", "MEDIUM"],
    ["https://www.bbc.co.uk/news/x", "MEDIUM"],
    ["https://developer.mozilla.org/en-US/docs/Web", "MEDIUM"],
    ["library://4c1e", "MEDIUM"],
    // social media, forums, content farms
    ["https://www.reddit.com/r/solar/comments/1", "LOW"],
    ["https://x.com/someone/status/1", "LOW"],
    ["https://twitter.com/someone", "LOW"],
    ["https://www.facebook.com/page", "LOW"],
    ["https://www.quora.com/What-is", "LOW"],
    ["https://medium.com/@a/post", "LOW"],
    ["https://someone.medium.com/post", "LOW"],
    ["https://www.pinterest.com/pin/1", "LOW"],
    ["https://www.tiktok.com/@a/video/1", "LOW"],
    ["https://stackoverflow.com/questions/1", "LOW"],
    // everything else
    ["https://www.tesla.com/solarpanels", "UNKNOWN"],
    ["https://someblog.example/post", "UNKNOWN"],
    ["https://notnature.com/x", "UNKNOWN"], // a suffix match needs a dot boundary
    ["https://government.com/x", "UNKNOWN"],
    ["not a url", "UNKNOWN"],
  ])("%s → %s", (url, tier) => {
    expect(classifySourceQuality(url)).toBe(tier);
  });
});

describe("classifySourceQuality with the page's own signals", () => {
  it.each([
    // official documentation on an unlisted domain
    ["a docs host", "https://docs.example-db.io/guide/indexes", { title: "Indexes" }, "MEDIUM"],
    ["a /docs/ path", "https://example-db.io/docs/indexes", { title: "Indexes" }, "MEDIUM"],
    ["a documentation title", "https://example-db.io/x", { title: "ExampleDB 4.2 Documentation" }, "MEDIUM"],
    // a paper with a DOI on an unlisted publisher, and a standard
    [
      "a DOI in the text",
      "https://journal.example-society.org/article/77",
      { title: "Cycle life of LFP cells", text: "Abstract … https://doi.org/10.1234/esj.2024.077" },
      "HIGH",
    ],
    ["a DOI in the path", "https://pubs.example.org/doi/10.5555/12345678", {}, "HIGH"],
    ["a standard", "https://example.org/specs/http", { text: "This document obsoletes RFC 7231." }, "HIGH"],
    // primary data
    ["a data host", "https://data.example-city.org/transport", {}, "MEDIUM"],
    ["a dataset path", "https://example.org/datasets/energy-2024", {}, "MEDIUM"],
    // forums and discussion threads, even when they cite a paper
    [
      "a forum host citing a DOI",
      "https://forum.example-solar.org/topic/42",
      { title: "Are LFP cells safer?", text: "see 10.1234/esj.2024.077" },
      "LOW",
    ],
    ["a Discourse thread", "https://example-lang.org/t/slow-builds/991", { title: "Slow builds" }, "LOW"],
    ["a questions path", "https://example.com/questions/123/how-to", {}, "LOW"],
    // what signals do not change
    ["a HIGH domain's forum", "https://forums.example.gov/thread/1", {}, "HIGH"],
    ["a LOW platform citing a DOI", "https://medium.com/@a/post", { text: "doi 10.1234/abc" }, "LOW"],
    ["a listed MEDIUM stays", "https://www.reuters.com/business/x", { title: "Report" }, "MEDIUM"],
    ["no signal", "https://example-company.com/blog/post", { title: "Our view" }, "UNKNOWN"],
  ] as const)("%s: %s → %s", (_what, url, page, tier) => {
    expect(classifySourceQuality(url, page)).toBe(tier);
  });

  it("looks only at the start of the text: a DOI deep in a blog post's references does not make it a paper", () => {
    const text = `${"Opinion paragraph. ".repeat(200)}\nReferences: 10.1234/esj.2024.077`;
    expect(classifySourceQuality("https://example-company.com/blog/post", { title: "Our view", text })).toBe(
      "UNKNOWN",
    );
  });
});
