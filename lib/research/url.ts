/**
 * URL identity for the engine: one normalised spelling per page (the sources table's per-run key
 * and the seen-URL set's key) and the display domain. Kept here, small and dependency-free, so the
 * engine does not reach into lib/search; the rules match its merge key (scheme/host case, default
 * ports, fragment, tracking parameters, parameter order, trailing slash).
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

/** The key a page is stored and de-duplicated by; unparseable input comes back trimmed. */
export function normalizeUrl(raw: string): string {
  const trimmed = raw.trim();
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return trimmed;
  }
  u.hash = "";
  u.hostname = u.hostname.toLowerCase(); // WHATWG URL lower-cases only special schemes' hosts
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
