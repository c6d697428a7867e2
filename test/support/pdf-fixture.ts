// Test-only: PDFs written by hand, one text line per page, with correct xref offsets, so tests can
// make documents of any page count without binary fixtures. Never import from production code.

/** A PDF with one page per entry of `pages`, each showing its line in Helvetica. */
export function makePdf(pages: string[], title?: string): Uint8Array<ArrayBuffer> {
  const n = pages.length;
  const pageIds = pages.map((_, i) => 4 + i * 2);
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${n} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  for (const [i, line] of pages.entries()) {
    const stream = `BT /F1 14 Tf 72 720 Td (${line.replace(/[()\\]/g, "\\$&")}) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageIds[i] + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    );
  }
  if (title !== undefined) objects.push(`<< /Title (${title}) >>`);
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  const info = title !== undefined ? ` /Info ${objects.length} 0 R` : "";
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out) as Uint8Array<ArrayBuffer>;
}

/** `count` pages, each a numbered sentence. */
export function numberedPages(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Page ${i + 1} of the long report on soil moisture.`);
}
