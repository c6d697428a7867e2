/**
 * Limits that need the production build to be proven: PDFs are parsed in a worker thread whose
 * entry the bundled server loads from the project root at run time, with the page cap; JSON bodies
 * over 256 KB are refused 413 by the built route handlers; a body that is not a readable form, or a
 * path no route handles, is the caller's mistake (4xx), never a 500 or the HTML page; a run page
 * refused a live stream by the per-person cap says so and offers to try again. (Rate limits and run
 * slots are raised for this suite, which creates many runs as one user; they are tested in
 * test/*.test.ts.)
 */
import { expect, test } from "@playwright/test";
import { makePdf, numberedPages } from "../test/support/pdf-fixture.ts";
import { scriptLlm, waitForIdle, waitForStatus } from "./support/helpers.ts";
import { clarificationRule } from "./support/research-script.ts";
import { sessionHeaders, sharedApp } from "./support/session.ts";

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

test("a malformed form posted anywhere, and an /api path no route handles, are 4xx, never a 500", async ({
  request,
}) => {
  const garbage = [
    { "content-type": "multipart/form-data" },
    { "content-type": "multipart/form-data; boundary=xyz" },
  ];
  for (const path of ["/no/such/page", "/", "/sign-in", "/api/no/such/route"]) {
    for (const headers of garbage) {
      const r = await request.post(path, { headers, data: "not a form at all" });
      expect(r.status(), `${path} ${headers["content-type"]}`).toBeGreaterThanOrEqual(400);
      expect(r.status(), `${path} ${headers["content-type"]}`).toBeLessThan(500);
    }
  }
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
    const r = await request.fetch("/api/no/such/route", { method });
    expect(r.status(), method).toBe(404);
    expect(r.headers()["content-type"]).toContain("application/json");
    expect((await r.json()).error, method).toMatchObject({ code: "not_found" });
  }
});

test("a run page refused a live stream by the per-person cap says so, and its Try again works", async ({
  page,
  request,
}) => {
  await waitForIdle(request);
  await scriptLlm([clarificationRule]);
  const { id } = await (
    await request.post("/api/runs", {
      data: { question: "Is a heat pump worth it?", settings: { clarification: true } },
    })
  ).json();
  await waitForStatus(request, id, ["awaiting_clarification"], 30_000);

  // Every stream the person may hold (EVENT_STREAMS_MAX_PER_USER, 20 by default), held open.
  const app = sharedApp();
  const held: AbortController[] = [];
  try {
    for (let i = 0; i < 20; i++) {
      const ctl = new AbortController();
      held.push(ctl);
      const r = await fetch(`${app.url}/api/runs/${id}/events`, {
        headers: sessionHeaders(app),
        signal: ctl.signal,
      });
      expect(r.status).toBe(200);
    }
    await page.goto(`/runs/${id}`);
    const notice = page.getByTestId("stream-notice");
    await expect(notice).toContainText(
      "the most this server allows one person (EVENT_STREAMS_MAX_PER_USER=20)",
    );
    await expect(notice).toContainText("The page is not updating by itself.");
    await expect(page.getByTestId("activity-latest")).toHaveCount(0);

    held.pop()?.abort();
    // The server gives the slot back once it sees the stream end; until then Try again is refused again.
    await expect(async () => {
      if (await notice.isVisible()) await notice.getByRole("button", { name: "Try again" }).click();
      await expect(page.getByTestId("activity-latest")).toBeAttached({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(notice).toBeHidden();
  } finally {
    for (const ctl of held) ctl.abort();
    await request.post(`/api/runs/${id}/cancel`);
  }
});
