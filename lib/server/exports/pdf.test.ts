// The PDF export read back the way a person's tools read it: pdftotext (poppler) for the words in
// reading order, unpdf (PDF.js) for the link annotations and the outline.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { exportCase, paragraphOpenings } from "../../../test/support/export-cases.ts";
import { renderPdf } from "./pdf.ts";

function pdftotext(bytes: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pdf-export-")), "report.pdf");
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** Words as a reader compares them: every run of white space (line ends included) one space. */
const flat = (s: string) => s.replace(/\s+/g, " ");

async function annotationsAndOutline(bytes: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  const links: { url?: string; dest?: unknown }[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    for (const a of await page.getAnnotations())
      if (a.subtype === "Link") links.push({ url: a.url, dest: a.dest });
  }
  const titles: string[] = [];
  const walk = (items: { title: string; items: unknown[] }[] | null) => {
    for (const item of items ?? []) {
      titles.push(item.title);
      walk(item.items as { title: string; items: unknown[] }[]);
    }
  };
  walk((await doc.getOutline()) as { title: string; items: unknown[] }[] | null);
  const dests = await doc.getDestinations();
  return { links, titles, dests: Object.keys(dests) };
}

describe("the PDF export", () => {
  it("holds each paragraph's opening in order, every [N], each cited URL, links and an outline", async () => {
    const doc = exportCase("en");
    const bytes = await renderPdf(doc);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = flat(pdftotext(bytes));

    let at = 0;
    for (const opening of paragraphOpenings(doc)) {
      const found = text.indexOf(flat(opening), at);
      expect(found, `paragraph opening "${opening}" after position ${at}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    for (const n of [1, 2, 3]) expect(text).toContain(`[${n}]`);
    for (const s of doc.sources) expect(text).toContain(s.url);
    // Verdicts and the stored passages come with the sources.
    expect(text).toContain("Not supported by the source");
    expect(text).toContain("emissions fell by 60 percent");
    // Table cells, list items and emphasised words are drawn as text.
    expect(text).toContain("Cold climate");
    expect(text).toContain("Arctic climate"); // a row with fewer cells than the header
    expect(text).toContain("Defrost cycles");

    const { links, titles, dests } = await annotationsAndOutline(bytes);
    const urls = links.flatMap((l) => (l.url ? [l.url] : []));
    for (const s of doc.sources) expect(urls).toContain(s.url);
    // The body's own link stays a link; the javascript: one is not.
    expect(urls).toContain("https://energy.example/guide");
    expect(urls.some((u) => u.startsWith("javascript:"))).toBe(false);
    // Each citation marker jumps to its Sources entry.
    expect(links.filter((l) => l.dest === "source-1").length).toBeGreaterThanOrEqual(2);
    expect(dests).toEqual(expect.arrayContaining(["source-1", "source-2", "source-3"]));
    expect(titles).toEqual(["Overview", "Performance in the cold", "Field data", "Costs", "Sources"]);
  });

  it("draws a Chinese question and report in their own characters", async () => {
    const doc = exportCase("zh");
    const text = flat(pdftotext(await renderPdf(doc)));
    expect(text).toContain(doc.question);
    for (const opening of paragraphOpenings(doc)) expect(text).toContain(flat(opening));
  });
});
