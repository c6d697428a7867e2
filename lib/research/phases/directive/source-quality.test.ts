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
