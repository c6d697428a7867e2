/**
 * One spelling per page, so results from several providers (and later the sources table) are
 * de-duplicated: scheme and host lower-cased and default ports dropped (WHATWG URL does both),
 * fragment and tracking parameters removed, remaining parameters sorted, trailing slash dropped
 * (the root's stays: URL serialisation always writes it). Unparseable input comes back trimmed.
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
