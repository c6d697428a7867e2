/**
 * The pages' Content-Security-Policy. Scripts run only with the request's nonce (Next.js puts it on
 * its own scripts when it finds it in the request's CSP header; 'strict-dynamic' lets those load the
 * page's chunks), nothing is fetched or framed from elsewhere, and no page may be framed. Images
 * only from this server or data: URLs — reports render no remote images at all.
 */

/** A fresh nonce per request: 16 random bytes, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * The policy for one page response. `dev` (next dev) adds 'unsafe-eval', which React's development
 * build needs to rebuild server error stacks in the browser; production never has it. Styles may be
 * inline: Next.js and React write style attributes, and a nonce in style-src would disable that.
 * No upgrade-insecure-requests: a self-hosted instance is often reached over plain http on a LAN.
 */
export function pageContentSecurityPolicy(nonce: string, opts: { dev: boolean }): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join("; ");
}
