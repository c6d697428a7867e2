/**
 * U+0000 (NUL) is a valid JSON and JavaScript character that PostgreSQL refuses in text ("invalid
 * byte sequence") and in jsonb ("unsupported Unicode escape sequence"). It carries no meaning in a
 * question, a document or a web page, so every boundary where text comes in — request bodies, forms,
 * MCP calls, fetched and extracted pages, PDFs, search hits — drops it before anything is stored.
 */

const NUL = String.fromCharCode(0);

/** The text without U+0000. */
export function stripNul(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, "") : text;
}

/**
 * A parsed value (JSON, form fields) with U+0000 removed from every string in it, keys included.
 * Values without NUL come back as they are.
 */
export function stripNulDeep<T>(value: T): T {
  if (typeof value === "string") return stripNul(value) as T;
  if (Array.isArray(value)) return value.map((v) => stripNulDeep(v)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripNul(k), stripNulDeep(v)])) as T;
  }
  return value;
}
