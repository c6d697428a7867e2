const TYPE_LABELS: Record<string, string> = {
  "text/plain": "Text",
  "text/markdown": "Markdown",
  "text/html": "HTML",
  "application/pdf": "PDF",
};

export const typeLabel = (mime: string) => TYPE_LABELS[mime] ?? mime;
export const numberFormat = new Intl.NumberFormat("en");
/** UTC and fixed-format, so the server's and the browser's rendering agree. */
export const formatDate = (iso: string) =>
  `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
