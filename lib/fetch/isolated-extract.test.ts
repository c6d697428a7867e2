// Parsing in a worker thread: the same text as parsing in place, a page cap, a time cap that stops
// the thread, cancellation — and the event loop keeps running while a large PDF is read.
import { describe, expect, it } from "vitest";
import { makePdf, numberedPages } from "../../test/support/pdf-fixture.ts";
import { ExtractionError, extractDocument } from "./extract.ts";
import { extractInWorker, extractIsolated, parseLimitsFromEnv } from "./isolated-extract.ts";
import type { FetchedResource } from "./safe-fetch.ts";

const generous = { timeoutMs: 60_000, maxPdfPages: 10_000 };

function resource(contentType: string, body: Uint8Array | string): FetchedResource {
  return {
    url: "https://docs.example/reports/soil-moisture",
    status: 200,
    contentType,
    body: typeof body === "string" ? new TextEncoder().encode(body) : body,
    redirects: [],
  };
}

async function failure(p: Promise<unknown>): Promise<ExtractionError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ExtractionError);
  return e as ExtractionError;
}

describe("extractInWorker", () => {
  it("reads limits from PARSE_TIMEOUT_MS and PARSE_MAX_PDF_PAGES (30 s and 200 pages by default)", () => {
    expect(parseLimitsFromEnv({})).toEqual({ timeoutMs: 30_000, maxPdfPages: 200 });
    expect(parseLimitsFromEnv({ PARSE_TIMEOUT_MS: "5000", PARSE_MAX_PDF_PAGES: "50" })).toEqual({
      timeoutMs: 5000,
      maxPdfPages: 50,
    });
    expect(() => parseLimitsFromEnv({ PARSE_MAX_PDF_PAGES: "0" })).toThrow(/PARSE_MAX_PDF_PAGES/);
  });

  it("gives the same document as extracting in place, for PDF and HTML", async () => {
    const pdf = resource("application/pdf", makePdf(numberedPages(3), "Soil moisture report"));
    const inPlace = await extractDocument(pdf);
    expect(await extractInWorker(pdf, generous)).toEqual(inPlace);
    expect(inPlace.text).toContain("Page 3 of the long report");

    const html = resource(
      "text/html",
      "<html><head><title>Loam</title></head><body><article><p>Loam holds water well and drains freely.</p></article></body></html>",
    );
    expect(await extractIsolated(html, generous)).toEqual(await extractDocument(html));
  });

  it("refuses a PDF over the page cap, naming both counts", async () => {
    const e = await failure(
      extractInWorker(resource("application/pdf", makePdf(numberedPages(6))), {
        ...generous,
        maxPdfPages: 5,
      }),
    );
    expect(e.reason).toBe("too_many_pages");
    expect(e.message).toBe("The PDF has 6 pages; at most 5 are read.");
    expect(e.details).toEqual({ pages: 6, limit: 5 }); // across the worker, for the UI's words
  });

  it("stops a parse that takes longer than the time cap", async () => {
    const big = resource("application/pdf", makePdf(numberedPages(1500)));
    const e = await failure(extractInWorker(big, { ...generous, timeoutMs: 50 }));
    expect(e.reason).toBe("timeout");
    expect(e.message).toMatch(/took longer than 50 ms; it was stopped/);
    expect(e.details).toEqual({ limit: 50 });
  });

  it("answers an unreadable document as such", async () => {
    const e = await failure(extractInWorker(resource("application/pdf", "%PDF-1.4 not really"), generous));
    expect(e.reason).toBe("unreadable");
    expect(e.message).toMatch(/Could not read the PDF/);
    expect(e.message).toBe(`Could not read the PDF: ${e.details.detail}`);
  });

  it("stops when its signal aborts", async () => {
    const controller = new AbortController();
    const parsing = extractInWorker(
      resource("application/pdf", makePdf(numberedPages(1500))),
      generous,
      controller.signal,
    );
    controller.abort(new Error("the client went away"));
    await expect(parsing).rejects.toThrow("the client went away");
  });

  it("leaves the event loop free while a large PDF is read: timers run meanwhile", async () => {
    const big = resource("application/pdf", makePdf(numberedPages(1500)));
    let parsed = false;
    const parsing = extractInWorker(big, generous).then((doc) => {
      parsed = true;
      return doc;
    });
    // Parsed on the event loop, a document this size holds every timer until it is done.
    const timerRanDuringParse = await new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(!parsed), 20),
    );
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const doc = await parsing;
    clearInterval(ticker);
    expect(timerRanDuringParse).toBe(true);
    expect(ticks).toBeGreaterThan(0);
    expect(doc.text).toContain("Page 1500 of the long report");
  });
});
