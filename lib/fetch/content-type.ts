/** Media types safeFetch accepts: the ones extractDocument can turn into text. */
export const ALLOWED_CONTENT_TYPES: ReadonlySet<string> = new Set([
  "text/html",
  "application/xhtml+xml",
  "text/plain",
  "text/markdown",
  "application/pdf",
]);

export interface ParsedContentType {
  /** Lower-cased `type/subtype` without parameters; "" when the header is missing or malformed. */
  mime: string;
  charset?: string;
}

export function parseContentType(header: string | null | undefined): ParsedContentType {
  if (!header) return { mime: "" };
  const [type = "", ...params] = header.split(";");
  const mime = type.trim().toLowerCase();
  let charset: string | undefined;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .trim()
      .toLowerCase();
    if (value) charset = value;
  }
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mime) ? { mime, charset } : { mime: "" };
}
