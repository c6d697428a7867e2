import { describe, expect, it } from "vitest";
import { extractDocument } from "./extract.ts";
import { MAX_LINKS_PER_PAGE } from "./html-links.ts";

function htmlPage(body: string, url = "https://news.example/articles/2025/heat.html") {
  return extractDocument({
    url,
    status: 200,
    contentType: "text/html",
    body: new TextEncoder().encode(
      `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`,
    ),
    redirects: [],
  });
}

describe("links of a fetched HTML page", () => {
  it("keeps absolute http(s) links, resolved against the page, main content first, without fragments", async () => {
    const doc = await htmlPage(`
      <nav><a href="/">Home</a><a href="/topics">Topics</a></nav>
      <article><p>See <a href="../../data/table.csv#row-3">the data</a> and
        <a href="https://gov.example/report.pdf">the report</a>.</p>
        <a href="javascript:alert(1)">x</a><a href="mailto:a@b.example">mail</a><a href="#top">top</a>
      </article>
      <footer><a href="https://gov.example/report.pdf">again</a></footer>`);
    expect(doc.links).toEqual([
      "https://news.example/data/table.csv",
      "https://gov.example/report.pdf",
      "https://news.example/articles/2025/heat.html",
      "https://news.example/",
      "https://news.example/topics",
    ]);
  });

  it("resolves against <base href> and caps the count", async () => {
    const anchors = Array.from({ length: MAX_LINKS_PER_PAGE + 20 }, (_, i) => `<a href="p${i}">${i}</a>`);
    const doc = await extractDocument({
      url: "https://site.example/index.html",
      status: 200,
      contentType: "text/html",
      body: new TextEncoder().encode(
        `<html><head><base href="https://cdn.example/docs/"></head><body>${anchors.join(" ")}</body></html>`,
      ),
      redirects: [],
    });
    const links = doc.links ?? [];
    expect(links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(links[0]).toBe("https://cdn.example/docs/p0");
  });

  it("gives plain text no links", async () => {
    const doc = await extractDocument({
      url: "https://site.example/notes.txt",
      status: 200,
      contentType: "text/plain",
      body: new TextEncoder().encode("See https://elsewhere.example/"),
      redirects: [],
    });
    expect(doc.links).toBeUndefined();
  });
});
