// The DOCX export opened as Word opens it: the zip's word/document.xml holds the report's
// paragraphs in order, word/footnotes.xml each cited source's URL (one footnote per citation).
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { exportCase, paragraphOpenings } from "../../../test/support/export-cases.ts";
import { renderDocx } from "./docx.ts";

/** The text of each <w:p> of a part, its runs joined, XML entities decoded. */
function paragraphs(xml: string): string[] {
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)]
      .map((t) => t[1])
      .join("")
      .replaceAll("&amp;", "&")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"'),
  );
}

async function parts(lang: "en" | "zh") {
  const doc = exportCase(lang);
  const files = unzipSync(new Uint8Array(await renderDocx(doc)));
  const text = (name: string) => new TextDecoder().decode(files[name]);
  return { doc, document: text("word/document.xml"), footnotes: text("word/footnotes.xml"), rels: files };
}

describe("the DOCX export", () => {
  it("writes each paragraph in order and each citation as a footnote naming its source's URL", async () => {
    const { doc, document, footnotes } = await parts("en");
    const body = paragraphs(document).join("\n");
    let at = 0;
    // Citation markers are footnote references in the body, so the opening is compared without them.
    for (const opening of paragraphOpenings(doc).map((o) => o.replace(/\[\d+\]/g, ""))) {
      const found = body.indexOf(opening, at);
      expect(found, `paragraph opening "${opening}"`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    expect(paragraphs(document)[0]).toBe(doc.question);
    // Eight markers in the body → eight footnotes (plus Word's two separator notes).
    expect([...document.matchAll(/<w:footnoteReference /g)]).toHaveLength(8);
    const notes = paragraphs(footnotes).join("\n");
    for (const s of doc.sources) expect(notes).toContain(s.url);
    expect(notes).toContain("[3] Installer survey.");
    expect(notes).toContain("Not supported by the source");
    // Sources section: verdicts and passages; the javascript: link is not written as a link.
    expect(body).toContain("Stored passage: “In the 2023 field study emissions fell by 60 percent");
    expect(document).not.toContain("javascript:");
    expect(body).toContain("Cold climate");
  });

  it("keeps a Chinese report's characters", async () => {
    const { doc, document } = await parts("zh");
    const body = paragraphs(document).join("\n");
    expect(body).toContain(doc.question);
    expect(body).toContain("热泵在寒冷气候中仍然可以保持较高的效率");
  });
});
