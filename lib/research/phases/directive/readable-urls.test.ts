import { describe, expect, it } from "vitest";
import {
  createReadableUrls,
  followableLinks,
  MAX_ALTERNATIVES,
  MAX_LINKS_PER_PAGE,
  readableUrlsOf,
  urlsInText,
} from "./readable-urls.ts";

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
  const link = "https://evil.example/a1";
  const brief = encodeURIComponent("the confidential merger plans of Example Corp");

  it("admits only the string itself: no tracking parameter, fragment or case-changed query rides on it", () => {
    const urls = createReadableUrls([link, "https://Example.org/a/?b=2&a=1&utm_source=x#top"]);
    for (const variant of [
      `${link}?utm_content=${brief}`,
      `${link}?UTM_Content=${brief}`,
      `${link}?fbclid=${brief}`,
      `${link}?gclid=${brief}&mc_cid=1`,
      `${link}#${brief}`,
      `${link}/`,
      "https://example.org/a?a=1&b=2", // the same page normalised, not the string admitted
      "https://example.org/a/?b=2&a=1&utm_source=X#top", // the query's case changed
      "https://example.org/a/?b=2&a=1&utm_source=x#TOP",
      "https://example.org/A/?b=2&a=1&utm_source=x#top",
    ]) {
      expect(urls.admitted(variant), variant).toBeUndefined();
    }
    expect(urls.admitted(link)).toBe(link);
    expect(urls.admitted("https://Example.org/a/?b=2&a=1&utm_source=x#top")).toBe(
      "https://Example.org/a/?b=2&a=1&utm_source=x#top",
    );
  });

  it("compares scheme and host in any case, and then answers with the string admitted", () => {
    const urls = createReadableUrls(["https://Example.org:8443/Path?Q=1"]);
    expect(urls.admitted("HTTPS://EXAMPLE.ORG:8443/Path?Q=1")).toBe("https://Example.org:8443/Path?Q=1");
    expect(urls.admitted("https://example.org:8443/path?Q=1")).toBeUndefined();
    // User info is not the host: it stays byte for byte.
    const withUser = createReadableUrls(["https://reader@host.example/x"]);
    expect(withUser.admitted("https://reader@HOST.example/x")).toBe("https://reader@host.example/x");
    expect(withUser.admitted("https://READER@host.example/x")).toBeUndefined();
  });

  it("names the admitted spellings of the same page for a refusal, capped", () => {
    const spellings = Array.from({ length: MAX_ALTERNATIVES + 3 }, (_, i) => `${link}?utm_source=s${i}`);
    const urls = createReadableUrls([link, ...spellings, "https://other.example/b"]);
    expect(urls.samePage(`${link}?utm_content=${brief}`)).toEqual(
      [link, ...spellings].slice(0, MAX_ALTERNATIVES),
    );
    expect(urls.samePage(`${link}#x`, 2)).toEqual([link, spellings[0]]);
    expect(urls.samePage("https://nowhere.example/")).toEqual([]);
    expect(urls.size).toBe(spellings.length + 2);
  });

  it("adds strings later, each once (scheme and host case aside)", () => {
    const urls = createReadableUrls();
    expect(urls.admitted(link)).toBeUndefined();
    urls.add([link, " https://EVIL.example/a1 ", "https://evil.example/a1?x=1"]);
    expect(urls.size).toBe(2);
    expect(urls.admitted("https://evil.example/a1?x=1")).toBe("https://evil.example/a1?x=1");
  });
});

describe("readableUrlsOf", () => {
  it("rebuilds the set from the stored raw strings: sources' URLs, admitted links, URLs written by the person", () => {
    const urls = readableUrlsOf(
      {
        question: "See https://press.example.org/release?id=42&utm_medium=mail.",
        clarificationAnswer: null,
        brief: "Start from https://brief.example.org/Overview#scope",
      },
      [{ url: "https://stats.example.gov/report.html?utm_source=feed" }],
      ["https://data.example.gov/t/?b=2&a=1"],
    );
    for (const stored of [
      "https://press.example.org/release?id=42&utm_medium=mail",
      "https://brief.example.org/Overview#scope",
      "https://stats.example.gov/report.html?utm_source=feed",
      "https://data.example.gov/t/?b=2&a=1",
    ]) {
      expect(urls.admitted(stored)).toBe(stored);
    }
    for (const normalised of [
      "https://press.example.org/release?id=42",
      "https://brief.example.org/Overview",
      "https://stats.example.gov/report.html",
      "https://data.example.gov/t?a=1&b=2",
    ]) {
      expect(urls.admitted(normalised)).toBeUndefined();
    }
  });
});

describe("followableLinks", () => {
  it("keeps http(s) links as the page gave them, each once, at most MAX_LINKS_PER_PAGE", () => {
    const many = Array.from({ length: MAX_LINKS_PER_PAGE + 50 }, (_, i) => `https://x.example/p${i}`);
    const links = followableLinks([
      "mailto:a@b.example",
      "https://x.example/p0/?b=2&a=1&utm_source=page",
      "https://x.example/p0/?b=2&a=1&utm_source=page",
      "file:///etc/passwd",
      ...many,
    ]);
    expect(links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(links[0]).toBe("https://x.example/p0/?b=2&a=1&utm_source=page");
    expect(links[1]).toBe("https://x.example/p0");
    expect(links.every((l) => l.startsWith("https://x.example/p"))).toBe(true);
    expect(followableLinks(undefined)).toEqual([]);
  });
});
