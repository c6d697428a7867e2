/**
 * Limits that need the production build to be proven: PDFs are parsed in a worker thread whose
 * entry the bundled server loads from the project root at run time, with the page cap; JSON bodies
 * over 256 KB are refused 413 by the built route handlers. (Rate limits and run slots are raised
 * for this suite, which creates many runs as one user; they are tested in test/*.test.ts.)
 */
import { expect, test } from "@playwright/test";
import { makePdf, numberedPages } from "../test/support/pdf-fixture.ts";

function pdfUpload(pages: number, name: string) {
  return {
    multipart: {
      file: { name, mimeType: "application/pdf", buffer: Buffer.from(makePdf(numberedPages(pages))) },
    },
  };
}

test("library PDFs are parsed in a worker thread of the built server, refused past the page cap", async ({
  request,
}) => {
  const stored = await request.post("/api/library", pdfUpload(3, "soil-moisture.pdf"));
  expect(stored.status()).toBe(201);
  const { id } = await stored.json();
  const full = await (await request.get(`/api/library/${id}`)).json();
  expect(full.document.content).toContain("Page 3 of the long report on soil moisture.");
  expect(full.document.mimeType).toBe("application/pdf");

  const tooLong = await request.post("/api/library", pdfUpload(201, "long.pdf"));
  expect(tooLong.status()).toBe(413);
  expect((await tooLong.json()).error).toMatchObject({
    code: "payload_too_large",
    message: "The PDF has 201 pages; at most 200 are read.",
  });
});

test("JSON bodies over 256 KB are refused 413 before they are read", async ({ request }) => {
  const big = { question: `Heat pumps? ${"x".repeat(300 * 1024)}` };
  for (const path of ["/api/runs", "/api/knowledge"]) {
    const r = await request.post(path, { data: big });
    expect(r.status(), path).toBe(413);
    expect((await r.json()).error.code).toBe("payload_too_large");
  }
});
