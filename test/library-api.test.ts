// The /api/library route handlers, called directly with Request objects against an embedded
// PGlite database in a temporary DATA_DIR.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { signUp, useFreshAppDatabase, withSession } from "./support/app-session.ts";
import { makePdf as makeLongPdf, numberedPages } from "./support/pdf-fixture.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-library-api-"));
// More uploads than the default rate limit allows; the limit itself is tested in test/limits-api.test.ts.
process.env.RATE_LIMIT_UPLOADS_PER_MINUTE = "1000";
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;

type Handler = (req: Request, ctx?: unknown) => Promise<Response>;
let list: Handler;
let add: Handler;
let getOne: Handler;
let remove: Handler;
let page: http.Server;
let pageHost = "";

let stopApp: () => Promise<void>;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  const { cookie } = await signUp("librarian@example.org");
  const root = await import("../app/api/library/route.ts");
  const one = await import("../app/api/library/[id]/route.ts");
  list = withSession(root.GET as Handler, cookie);
  add = withSession(root.POST as Handler, cookie);
  getOne = withSession(one.GET as Handler, cookie);
  remove = withSession(one.DELETE as Handler, cookie);
  page = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      "<!doctype html><html><head><title>Fetched article</title></head><body><article><h1>Fetched article</h1>" +
        "<p>Geothermal heat pumps draw on the stable temperature of the ground a few metres down.</p>" +
        "<p>They cost more to install than air-source units but run more efficiently in deep winter.</p></article></body></html>",
    );
  });
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
  pageHost = `127.0.0.1:${(page.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => page.close(() => r()));
  await stopApp();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const base = "http://localhost/api/library";

function postJson(body: unknown): Promise<Response> {
  return add(
    new Request(base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

function upload(file: Blob, name: string, title?: string): Promise<Response> {
  const form = new FormData();
  form.set("file", file, name);
  if (title) form.set("title", title);
  return add(new Request(base, { method: "POST", body: form }));
}

function ctx(id: string) {
  return { params: Promise.resolve({ id }) };
}

async function expectError(res: Response, status: number, code: string, message?: RegExp) {
  const body = (await res.json()) as { error: { code: string; message: string; details?: unknown } };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.error.code).toBe(code);
  if (message) expect(body.error.message).toMatch(message);
  return body.error;
}

/** Handmade one-page PDF with correct xref offsets. */
function makePdf(line: string): Uint8Array<ArrayBuffer> {
  const stream = `BT /F1 18 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out) as Uint8Array<ArrayBuffer>;
}

describe("POST /api/library", () => {
  it("adds Markdown text (201), titles it from its heading and lists it", async () => {
    const res = await postJson({ text: "# Soil notes\n\nLoam holds water well.", format: "markdown" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; document: Record<string, unknown> };
    expect(body.document).toMatchObject({
      id: body.id,
      title: "Soil notes",
      mimeType: "text/markdown",
      sourceUrl: null,
    });
    const listed = (await (await list(new Request(base))).json()) as { documents: { id: string }[] };
    expect(listed.documents.map((d) => d.id)).toContain(body.id);
    expect(listed.documents[0]).not.toHaveProperty("content");
  });

  it("uses a given title and defaults format to text", async () => {
    const res = await postJson({ title: "  My note ", text: "Plain words." });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { document: unknown }).document).toMatchObject({
      title: "My note",
      mimeType: "text/plain",
    });
  });

  it("converts HTML given as text to text, never storing the markup", async () => {
    const html =
      "<html><head><title>Bread</title><script>alert(1)</script></head><body><p>Sourdough uses a <b>starter</b>.</p></body></html>";
    const res = await postJson({ text: html, format: "html" });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const doc = (await (await getOne(new Request(`${base}/${id}`), ctx(id))).json()) as {
      document: { title: string; content: string; mimeType: string };
    };
    expect(doc.document.title).toBe("Bread");
    expect(doc.document.content).toContain("Sourdough uses a starter.");
    expect(doc.document.content).not.toMatch(/[<>]|alert/);
    expect(doc.document.mimeType).toBe("text/html");
  });

  it("fetches a URL through the safe fetch when its host is allowed", async () => {
    process.env.FETCH_ALLOWED_HOSTS = pageHost;
    try {
      const res = await postJson({ url: `http://${pageHost}/article` });
      expect(res.status).toBe(201);
      const { document } = (await res.json()) as { document: Record<string, unknown> };
      expect(document).toMatchObject({
        title: "Fetched article",
        sourceUrl: `http://${pageHost}/article`,
        mimeType: "text/html",
      });
    } finally {
      delete process.env.FETCH_ALLOWED_HOSTS;
    }
  });

  it("refuses a URL the SSRF guard refuses with 422 and the reason", async () => {
    const error = await expectError(
      await postJson({ url: `http://${pageHost}/article` }),
      422,
      "validation_failed",
      /could not be added/,
    );
    expect(error.details).toMatchObject({ reason: "private_address" });
  });

  it("uploads a PDF, an HTML file and a Markdown file", async () => {
    const pdf = await upload(
      new Blob([makePdf("Photovoltaic cells convert light")], { type: "application/pdf" }),
      "solar.pdf",
    );
    expect(pdf.status).toBe(201);
    expect(((await pdf.json()) as { document: unknown }).document).toMatchObject({
      mimeType: "application/pdf",
    });

    const page = await upload(
      new Blob(["<html><body><p>Wind turbines in the North Sea.</p></body></html>"], { type: "" }),
      "wind.html",
      "Wind report",
    );
    expect(page.status).toBe(201);
    const { id } = (await page.json()) as { id: string };
    const doc = (await (await getOne(new Request(`${base}/${id}`), ctx(id))).json()) as {
      document: { title: string; content: string };
    };
    expect(doc.document).toMatchObject({ title: "Wind report", content: "Wind turbines in the North Sea." });

    const md = await upload(new Blob(["Tidal power is predictable."], { type: "text/markdown" }), "tides.md");
    expect(md.status).toBe(201);
    expect(((await md.json()) as { document: unknown }).document).toMatchObject({
      title: "Tidal power is predictable.",
      mimeType: "text/markdown",
    });
  });

  it("answers 400 for malformed JSON and multipart", async () => {
    await expectError(await postJson("{not json"), 400, "invalid_json");
    const broken = new Request(base, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      body: "garbage",
    });
    await expectError(await add(broken), 400, "bad_request", /multipart/);
  });

  it.each([
    [{}, /either "text".*or "url"/],
    [{ text: "a", url: "https://example.org/" }, /either "text"/],
    [{ text: "a", format: "pdf" }, /format/],
    [{ url: "ftp://example.org/file" }, /url: must be an http\(s\) URL/],
    [{ url: "https://example.org/", format: "html" }, /format.*applies to "text" only/],
    [{ text: "a", extra: true }, /extra/],
    [{ text: "a", title: "" }, /title/],
  ])("answers 422 for the invalid body %j", async (body, message) => {
    await expectError(await postJson(body), 422, "validation_failed", message);
  });

  it("answers 422 for documents without text", async () => {
    await expectError(await postJson({ text: "   \n  " }), 422, "validation_failed", /no text/);
    await expectError(
      await postJson({ text: "<p> </p>", format: "html" }),
      422,
      "validation_failed",
      /no text/,
    );
    await expectError(
      await upload(new Blob(["%PDF-1.4 broken"], { type: "application/pdf" }), "broken.pdf"),
      422,
      "validation_failed",
      /PDF/,
    );
    await expectError(
      await upload(new Blob(["just text"], { type: "application/pdf" }), "fake.pdf"),
      422,
      "validation_failed",
      /not a PDF/,
    );
    await expectError(
      await add(new Request(base, { method: "POST", body: new FormData() })),
      422,
      "validation_failed",
      /"file" field/,
    );
  });

  it("answers 413 for text over 2 MB and bodies over 10 MB", async () => {
    const big = "word ".repeat(450_000); // 2.25 MB
    await expectError(await postJson({ text: big }), 413, "payload_too_large", /limit is 2\.0 MB/);
    await expectError(
      await upload(new Blob([big], { type: "text/plain" }), "big.txt"),
      413,
      "payload_too_large",
    );
    // Serialised first: undici's own FormData body stream throws when a reader cancels it early,
    // which only happens for in-process Requests like this one, never for a real upload.
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(11 * 1024 * 1024)], { type: "application/pdf" }), "huge.pdf");
    const encoded = new Response(form);
    const huge = new Request(base, {
      method: "POST",
      headers: { "content-type": encoded.headers.get("content-type") ?? "" },
      body: await encoded.arrayBuffer(),
    });
    await expectError(await add(huge), 413, "payload_too_large", /10\.0 MB/);
    const declared = new Request(base, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(50 * 1024 * 1024) },
      body: "{}",
    });
    await expectError(await add(declared), 413, "payload_too_large");
    // A streamed body without Content-Length is cut off while it is read.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 100 * 1024 * 1024) return controller.close();
        sent += 1024 * 1024;
        controller.enqueue(new Uint8Array(1024 * 1024).fill(32));
      },
    });
    const streamed = new Request(base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectError(await add(streamed), 413, "payload_too_large");
    expect(sent).toBeLessThan(100 * 1024 * 1024);
  });

  it("refuses bodies that are neither JSON nor multipart (403), and unsupported files (415)", async () => {
    await expectError(
      await add(new Request(base, { method: "POST", headers: { "content-type": "text/plain" }, body: "hi" })),
      403,
      "forbidden",
    );
    await expectError(
      await upload(new Blob(["MZ..."], { type: "application/octet-stream" }), "tool.exe"),
      415,
      "unsupported_media_type",
      /Unsupported file type/,
    );
    await expectError(
      await upload(
        new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0])], { type: "text/plain" }),
        "notes.txt",
      ),
      415,
      "unsupported_media_type",
      /binary/,
    );
  });
});

describe("parsing caps (PARSE_MAX_PDF_PAGES, PARSE_TIMEOUT_MS), in a worker thread", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const pdfUpload = (pages: number) =>
    upload(new Blob([makeLongPdf(numberedPages(pages))], { type: "application/pdf" }), "long.pdf");

  it("answers 413 for a PDF over the page cap", async () => {
    vi.stubEnv("PARSE_MAX_PDF_PAGES", "5");
    const error = await expectError(await pdfUpload(6), 413, "payload_too_large");
    expect(error.message).toBe("The PDF has 6 pages; at most 5 are read.");
    expect((await pdfUpload(5)).status).toBe(201);
  });

  it("answers 422 when the parse takes longer than the time cap, and stops it", async () => {
    vi.stubEnv("PARSE_TIMEOUT_MS", "1");
    const error = await expectError(await pdfUpload(50), 422, "validation_failed");
    expect(error.message).toMatch(/took longer than 1 ms; it was stopped/);
    expect(error.details).toMatchObject({ reason: "timeout" });
  });

  it("keeps serving other requests while a large PDF is parsed", async () => {
    vi.stubEnv("PARSE_MAX_PDF_PAGES", "2000");
    let stored = false;
    const uploading = pdfUpload(1500).then((res) => {
      stored = true;
      return res;
    });
    // Parsed on the event loop, this document would hold every other request until it was done.
    const listing = await list(new Request(base));
    const listedDuringParse = !stored;
    const timerRanDuringParse = await new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(!stored), 20),
    );
    expect(listing.status).toBe(200);
    expect(listedDuringParse).toBe(true);
    expect(timerRanDuringParse).toBe(true);
    const res = await uploading;
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const doc = (await (await getOne(new Request(`${base}/${id}`), ctx(id))).json()) as {
      document: { content: string };
    };
    expect(doc.document.content).toContain("Page 1500 of the long report");
  });
});

describe("GET and DELETE /api/library/:id", () => {
  it("deletes the caller's document (204), then 404s", async () => {
    const { id } = (await (await postJson({ text: "To be removed." })).json()) as { id: string };
    expect((await remove(new Request(`${base}/${id}`, { method: "DELETE" }), ctx(id))).status).toBe(204);
    await expectError(
      await remove(new Request(`${base}/${id}`, { method: "DELETE" }), ctx(id)),
      404,
      "not_found",
    );
    await expectError(await getOne(new Request(`${base}/${id}`), ctx(id)), 404, "not_found");
    const listed = (await (await list(new Request(base))).json()) as { documents: { id: string }[] };
    expect(listed.documents.map((d) => d.id)).not.toContain(id);
  });

  it("404s for another owner's document and leaves it in place", async () => {
    const { getDatabase } = await import("../db/client.ts");
    const { insertLibraryDocument, getLibraryDocument } = await import("../db/queries/library.ts");
    const { db } = await getDatabase();
    const other = await insertLibraryDocument(db, {
      ownerId: "someone-else",
      title: "Theirs",
      content: "Private.",
      mimeType: "text/plain",
    });
    await expectError(
      await remove(new Request(`${base}/${other.id}`, { method: "DELETE" }), ctx(other.id)),
      404,
      "not_found",
    );
    await expectError(await getOne(new Request(`${base}/${other.id}`), ctx(other.id)), 404, "not_found");
    expect(await getLibraryDocument(db, other.id, "someone-else")).toBeDefined();
    const listed = (await (await list(new Request(base))).json()) as { documents: { id: string }[] };
    expect(listed.documents.map((d) => d.id)).not.toContain(other.id);
  });

  it("404s for a malformed id", async () => {
    await expectError(
      await remove(new Request(`${base}/nope`, { method: "DELETE" }), ctx("nope")),
      404,
      "not_found",
    );
  });
});
