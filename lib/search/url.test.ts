import { describe, expect, it } from "vitest";
import { domainOf, isWebUrl, normalizeUrl } from "./url.ts";

describe("normalizeUrl", () => {
  it.each([
    ["HTTPS://Example.ORG:443/Path/", "https://example.org/Path"],
    ["https://example.org/a?utm_source=x&b=2&a=1#section", "https://example.org/a?a=1&b=2"],
    ["https://example.org/a?fbclid=abc&gclid=1", "https://example.org/a"],
    ["http://example.org:80", "http://example.org/"],
    ["  https://example.org/x  ", "https://example.org/x"],
    ["library://3f2a", "library://3f2a"],
    ["not a url", "not a url"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it("is idempotent", () => {
    const once = normalizeUrl("https://Example.org/a/?z=1&utm_medium=m&a=2#top");
    expect(normalizeUrl(once)).toBe(once);
  });
});

describe("domainOf", () => {
  it.each([
    ["https://www.Nature.com/articles/x", "nature.com"],
    ["https://ncbi.nlm.nih.gov/pmc/1", "ncbi.nlm.nih.gov"],
    ["library://doc-1", "library"],
    ["garbage", ""],
  ])("%s → %s", (input, expected) => {
    expect(domainOf(input)).toBe(expected);
  });
});

describe("isWebUrl", () => {
  it("accepts only http and https", () => {
    expect(isWebUrl("https://example.org")).toBe(true);
    expect(isWebUrl("http://example.org")).toBe(true);
    expect(isWebUrl("file:///etc/passwd")).toBe(false);
    expect(isWebUrl("library://x")).toBe(false);
    expect(isWebUrl("example.org")).toBe(false);
  });
});
