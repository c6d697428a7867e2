import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ExtractionError, extractDocument, fetchDocument } from "./extract.ts";
import type { FetchedResource } from "./safe-fetch.ts";

function resource(
  contentType: string,
  body: Uint8Array | string,
  extra: Partial<FetchedResource> = {},
): FetchedResource {
  return {
    url: "http://docs.example/articles/some-page",
    status: 200,
    contentType,
    body: typeof body === "string" ? new TextEncoder().encode(body) : body,
    redirects: [],
    ...extra,
  };
}

/** ISO-8859-1 bytes of a string whose characters are all in Latin-1. */
function latin1(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => {
    const code = c.charCodeAt(0);
    if (code > 0xff) throw new Error(`not latin-1: ${c}`);
    return code;
  });
}

/**
 * A minimal valid PDF written by hand: one page, one text object, Helvetica, an Info title, and an
 * xref table whose byte offsets are computed as the file is assembled.
 */
function makePdf(lines: string[], title: string): Uint8Array {
  const ops = lines.map((line, i) => `${i === 0 ? "" : "0 -30 Td "}(${line}) Tj`).join(" ");
  const stream = `BT /F1 18 Tf 72 720 Td ${ops} ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Title (${title}) /Producer (hand) >>`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

const PARAGRAPH_1 =
  "Solar panels convert sunlight into electricity using photovoltaic cells, which are made of semiconductor materials such as silicon.";
const PARAGRAPH_2 =
  "The efficiency of commercial panels has risen steadily, and modern modules convert more than twenty percent of incoming light into power.";
const PARAGRAPH_3 =
  "Installation costs have fallen as manufacturing scaled up, making rooftop systems affordable for many households across the world.";

const ARTICLE_HTML = `<!doctype html>
<html lang="en">
<head>
  <title>How solar panels work</title>
  <meta name="author" content="Ada Example">
  <style>.hidden { display: none } body::before { content: "STYLE TEXT" }</style>
  <script>globalThis.__extractPwned = true; document.write("SCRIPT TEXT");</script>
</head>
<body>
  <nav><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop NAVLINK</a></li><li><a href="/about">About</a></li></ul></nav>
  <header><div class="banner">Subscribe to our newsletter BANNER</div></header>
  <main>
    <article>
      <h1>How solar panels work</h1>
      <p>${PARAGRAPH_1}</p>
      <script>globalThis.__extractPwned = true;</script>
      <p>${PARAGRAPH_2}</p>
      <p>${PARAGRAPH_3}<br>A second line after a break.</p>
    </article>
  </main>
  <footer>Copyright 2025 FOOTERTEXT. All rights reserved. <a href="/privacy">Privacy</a></footer>
  <img src="x" onerror="globalThis.__extractPwned = true">
</body>
</html>`;

describe("extractDocument: HTML", () => {
  it("returns the title and the article text without nav, footer, script or style", async () => {
    const doc = await extractDocument(resource("text/html", ARTICLE_HTML, { charset: "utf-8" }));
    expect(doc.title).toBe("How solar panels work");
    expect(doc.contentType).toBe("text/html");
    expect(doc.url).toBe("http://docs.example/articles/some-page");
    expect(doc.byline).toBe("Ada Example");
    expect(doc.lang).toBe("en");
    // Paragraphs stay separated by blank lines; a <br> stays a line break.
    expect(doc.text).toContain(
      `${PARAGRAPH_1}\n\n${PARAGRAPH_2}\n\n${PARAGRAPH_3}\nA second line after a break.`,
    );
    for (const junk of [
      "NAVLINK",
      "BANNER",
      "FOOTERTEXT",
      "SCRIPT TEXT",
      "STYLE TEXT",
      "__extractPwned",
      "display",
    ]) {
      expect(doc.text).not.toContain(junk);
    }
    // Nothing from the page ran.
    expect((globalThis as Record<string, unknown>).__extractPwned).toBeUndefined();
  });

  it("falls back to the body text (minus page chrome) when Readability finds no article", async () => {
    const html = `<html><head><title>Tiny</title></head><body>
      <nav>Menu NAVLINK</nav><div>Short fact one.</div><div>Short fact two.</div>
      <script>var SCRIPTVAR = 1</script><footer>FOOTERTEXT</footer></body></html>`;
    const doc = await extractDocument(resource("text/html", html));
    expect(doc.title).toBe("Tiny");
    expect(doc.text).toBe("Short fact one.\n\nShort fact two.");
  });

  it("decodes using a <meta charset> when the header has none, and titles from the URL when the page has none", async () => {
    const html = `<html><head><meta charset="windows-1252"></head><body><p>Café crème à la française — naïve</p></body></html>`;
    const bytes = Uint8Array.from(html, (c) => (c === "—" ? 0x97 : c.charCodeAt(0)));
    const doc = await extractDocument(resource("text/html", bytes));
    expect(doc.text).toBe("Café crème à la française — naïve");
    expect(doc.title).toBe("some-page");
  });

  it("prefers the HTTP charset over <meta>", async () => {
    const html = `<html><head><meta charset="utf-8"><title>Prix</title></head><body><p>Prix: 5 €uro, élevé</p></body></html>`;
    const bytes = Uint8Array.from(html, (c) => (c === "€" ? 0x80 : c.charCodeAt(0)));
    const doc = await extractDocument(resource("text/html", bytes, { charset: "windows-1252" }));
    expect(doc.text).toBe("Prix: 5 €uro, élevé");
  });
});

describe("extractDocument: text", () => {
  it("decodes text/plain with charset=iso-8859-1", async () => {
    const text = "Über Größe: Straße, façade, niño - no, just ½ of it.";
    const doc = await extractDocument(resource("text/plain", latin1(text), { charset: "iso-8859-1" }));
    expect(doc.text).toBe(text);
    expect(doc.title).toBe(text);
    // The same bytes read as UTF-8 would be mojibake: the charset really mattered.
    expect(new TextDecoder("utf-8").decode(latin1(text))).not.toBe(text);
  });

  it("keeps Markdown as is and titles it from the first heading", async () => {
    const md = "Intro line\n\n# Research notes\n\n- point one\n- point two\n\n\n\nEnd.";
    const doc = await extractDocument(resource("text/markdown", md, { charset: "utf-8" }));
    expect(doc.title).toBe("Research notes");
    expect(doc.text).toBe("Intro line\n\n# Research notes\n\n- point one\n- point two\n\nEnd.");
  });

  it("honours a UTF-8 BOM over a wrong declared charset", async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("naïve ✓")]);
    const doc = await extractDocument(resource("text/plain", body, { charset: "iso-8859-1" }));
    expect(doc.text).toBe("naïve ✓");
  });
});

describe("extractDocument: PDF", () => {
  it("extracts the text and title of a small handmade PDF", async () => {
    const pdf = makePdf(
      ["Photovoltaic efficiency report", "Modules reached 22 percent in 2024."],
      "Efficiency Report",
    );
    const res = resource("application/pdf", pdf);
    const doc = await extractDocument(res);
    expect(doc.title).toBe("Efficiency Report");
    expect(doc.contentType).toBe("application/pdf");
    expect(doc.text).toContain("Photovoltaic efficiency report");
    expect(doc.text).toContain("Modules reached 22 percent in 2024.");
    // pdf.js detaches buffers it is given; the caller's body must survive.
    expect(res.body.byteLength).toBe(pdf.byteLength);
  });

  it("drops U+0000 from a PDF's text and title (a \\000 escape in its strings)", async () => {
    const doc = await extractDocument(
      resource(
        "application/pdf",
        makePdf(["Cells\\000 age slowly.", "Tabs\\000\\000 too."], "Aging\\000 report"),
      ),
    );
    expect(doc.title).toBe("Aging report");
    expect(doc.text).not.toContain("\u0000");
    expect(doc.text).toContain("age slowly.");
  });

  it("drops U+0000 from text/plain and HTML pages", async () => {
    const plain = await extractDocument(resource("text/plain", "one\u0000two"));
    expect(plain.text).toBe("onetwo");
    const html = await extractDocument(
      resource(
        "text/html",
        "<html><head><title>T\u0000itle</title></head><body><p>Para\u0000graph text here.</p></body></html>",
      ),
    );
    expect(html.title).toBe("Title");
    expect(html.text).not.toContain("\u0000");
  });

  it("throws an ExtractionError for bytes that are not a PDF", async () => {
    await expect(extractDocument(resource("application/pdf", "this is not a pdf"))).rejects.toBeInstanceOf(
      ExtractionError,
    );
  });
});

describe("fetchDocument", () => {
  it("fetches safely from an allowed host and extracts the article", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE_HTML);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    try {
      const doc = await fetchDocument(`http://127.0.0.1:${port}/solar`, {
        allowedHosts: [`127.0.0.1:${port}`],
      });
      expect(doc.url).toBe(`http://127.0.0.1:${port}/solar`);
      expect(doc.title).toBe("How solar panels work");
      expect(doc.text).toContain(PARAGRAPH_2);
      expect(doc.text).not.toContain("FOOTERTEXT");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
