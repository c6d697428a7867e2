import { extractText, getDocumentProxy, getMeta } from "unpdf";

export interface PdfExtraction {
  title?: string;
  text: string;
  lang?: string;
}

/** PDF → text, pages separated by blank lines. Fonts are not loaded or evaluated: text only. */
export async function extractPdf(bytes: Uint8Array): Promise<PdfExtraction> {
  // pdf.js takes ownership of (detaches) the buffer it is given, so hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0, // errors only: missing standard-font data is irrelevant when only text is read
  });
  try {
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
