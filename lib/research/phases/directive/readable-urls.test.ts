import { describe, expect, it } from "vitest";
import { createReadableUrls, followableLinks, MAX_LINKS_PER_PAGE, urlsInText } from "./readable-urls.ts";

describe("urlsInText", () => {
  it("finds the http(s) URLs written in prose, without the punctuation around them", () => {
    const text =
      "Compare https://a.example/report.pdf, the table at (https://b.example/t?year=2025) and " +
      '"https://c.example/x". Also https://en.wikipedia.org/wiki/Heat_pump_(disambiguation). ' +
      "Not ftp://d.example/file or javascript:alert(1).";
    expect(urlsInText(text)).toEqual([
      "https://a.example/report.pdf",
      "https://b.example/t?year=2025",
      "https://c.example/x",
      "https://en.wikipedia.org/wiki/Heat_pump_(disambiguation)",
    ]);
  });

  it("finds nothing in text without URLs", () => {
    expect(urlsInText("What is the COP of a heat pump at -15 °C?")).toEqual([]);
  });
});

describe("createReadableUrls", () => {
  it("compares by normalised URL: tracking parameters, fragments and parameter order do not matter", () => {
    const urls = createReadableUrls(["https://Example.org/a/?b=2&a=1&utm_source=x#top"]);
    expect(urls.allows("https://example.org/a?a=1&b=2")).toBe(true);
    expect(urls.allows("https://example.org/a?a=1&b=2&q=secret")).toBe(false);
    expect(urls.allows("https://example.org/b")).toBe(false);
    urls.add(["https://example.org/b"]);
    expect(urls.allows("https://example.org/b#section")).toBe(true);
    expect(urls.size).toBe(2);
  });
});

describe("followableLinks", () => {
  it("keeps http(s) links, normalised, each once, at most MAX_LINKS_PER_PAGE", () => {
    const many = Array.from({ length: MAX_LINKS_PER_PAGE + 50 }, (_, i) => `https://x.example/p${i}`);
    const links = followableLinks([
      "mailto:a@b.example",
      "https://x.example/p0#frag",
      "file:///etc/passwd",
      ...many,
    ]);
    expect(links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(links[0]).toBe("https://x.example/p0");
    expect(links.every((l) => l.startsWith("https://x.example/p"))).toBe(true);
    expect(followableLinks(undefined)).toEqual([]);
  });
});
