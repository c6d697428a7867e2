/**
 * URL identity for the engine: one normalised spelling per page (the sources table's per-run key
 * and the seen-URL set's key) and the display domain. The normalisation is the search layer's merge
 * key itself (lib/search/normalize-url.ts is dependency-free), so a URL de-duplicated while merging
 * results is the same key the sources table stores — one rule, not two copies that could drift.
 */
export { normalizeUrl } from "../search/normalize-url.ts";

/**
 * The host a source is shown and classified by, without a leading "www.". Library documents
 * (library://id) have the domain "library"; anything unparseable has "".
 */
export function domainOf(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return "";
  }
  if (u.protocol === "library:") return "library";
  return u.hostname
    .toLowerCase()
    .replace(/^www\./, "")
    .replace(/\.$/, "");
}

/** True for URLs the researcher may hand to the safe fetcher (everything else is refused there anyway). */
export function isWebUrl(raw: string): boolean {
  try {
    const u = new URL(raw.trim());
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}
