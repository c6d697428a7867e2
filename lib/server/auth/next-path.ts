/**
 * Where sign-in sends a person afterwards (?next=): only a path on this site. Anything that could
 * leave it — an absolute URL, a protocol-relative "//host", a backslash trick — falls back to "/".
 */
export function safeNextPath(raw: string | string[] | undefined | null): string {
  const path = sameSitePath(raw);
  // Back to the sign-in or sign-up form after signing in would be a loop.
  return /^\/(sign-in|sign-up|setup)([/?#]|$)/.test(path) ? "/" : path;
}

/** A path on this site (the sign-in pages included), or "/" for anything that could leave it. */
export function sameSitePath(raw: string | string[] | undefined | null): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value?.startsWith("/") || value.startsWith("//") || /[\\\s]/.test(value)) return "/";
  const base = "http://same-site.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return "/";
  }
  if (url.origin !== base) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /sign-in, with ?next= when the page asked for is somewhere worth coming back to. */
export function signInPath(requestPath: string | null): string {
  const next = safeNextPath(requestPath);
  return next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`;
}
