import { extractText, getDocumentProxy, getMeta } from "unpdf";

export interface PdfExtraction {
  title?: string;
  text: string;
  lang?: string;
}

/** The PDF has more pages than may be read; nothing of it was extracted. */
export class PdfPageLimitError extends Error {
  readonly pages: number;
  readonly maxPages: number;

  constructor(pages: number, maxPages: number) {
    super(`The PDF has ${pages} pages; at most ${maxPages} are read.`);
    this.name = "PdfPageLimitError";
    this.pages = pages;
    this.maxPages = maxPages;
  }
}

/**
 * PDF → text, pages separated by blank lines. Fonts are not loaded or evaluated: text only. A PDF
 * with more than `maxPages` pages is refused before any page is read.
 */
export async function extractPdf(
  bytes: Uint8Array,
  opts: { maxPages?: number } = {},
): Promise<PdfExtraction> {
  // pdf.js takes ownership of (detaches) the buffer it is given, so hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0, // errors only: missing standard-font data is irrelevant when only text is read
  });
  try {
    if (opts.maxPages !== undefined && pdf.numPages > opts.maxPages) {
      throw new PdfPageLimitError(pdf.numPages, opts.maxPages);
    }
    const { text } = await extractText(pdf, { mergePages: false });
    const meta = await getMeta(pdf).catch(() => undefined);
    const info = (meta?.info ?? {}) as Record<string, unknown>;
    const title = typeof info.Title === "string" && info.Title.trim() ? info.Title.trim() : undefined;
    const lang = typeof info.Language === "string" && info.Language.trim() ? info.Language.trim() : undefined;
    const pages = text.map((page) => page.replace(/[ \t]+\n/g, "\n").trim()).filter((page) => page !== "");
    return { title, text: pages.join("\n\n"), lang };
  } finally {
    await pdf.loadingTask.destroy();
  }
}
