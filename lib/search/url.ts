/**
 * URL identity for the whole app, in one place: the normalised spelling that de-duplicates search
 * results across providers and keys the engine's sources table and seen-URL set (so a URL merged
 * here is the same key the sources table stores), the display domain, and whether a URL is a web
 * page the fetcher may read. Dependency-free, so every layer above lib/search can use it.
 *
 * The normalised spelling says "same page", never "may be fetched": it drops tracking parameters
 * and fragments, exactly where a model could hide text, so what the researcher fetches is matched
 * against the admitted raw strings instead (lib/research/phases/directive/readable-urls.ts).
 */

const TRACKING_PARAMS = new Set([
  "fbclid",
  "gclid",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "yclid",
  "igshid",
  "mc_cid",
  "mc_eid",
  "_hsenc",
  "_hsmi",
]);

function isTracking(key: string): boolean {
  const k = key.toLowerCase();
  return k.startsWith("utm_") || TRACKING_PARAMS.has(k);
}

/**
 * One spelling per page, so results from several providers (and later the sources table) are
 * de-duplicated: scheme and host lower-cased and default ports dropped (WHATWG URL does both),
 * fragment and tracking parameters removed, remaining parameters sorted, trailing slash dropped
 * (the root's stays: URL serialisation always writes it). Unparseable input comes back trimmed.
 */
export function normalizeUrl(raw: string): string {
  const trimmed = raw.trim();
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return trimmed;
  }
  u.hash = "";
  u.hostname = u.hostname.toLowerCase(); // URL lower-cases only special schemes' hosts
  const params = [...u.searchParams].filter(([k]) => !isTracking(k));
  params.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  u.search = params.length > 0 ? new URLSearchParams(params).toString() : "";
  if (u.pathname.length > 1 && u.pathname.endsWith("/")) u.pathname = u.pathname.replace(/\/+$/, "") || "/";
  return u.toString();
}

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
