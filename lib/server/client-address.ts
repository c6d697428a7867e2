/**
 * The client's address: the last X-Forwarded-For entry. The production server (scripts/serve.mjs)
 * writes that header from the socket unless TRUST_PROXY=true, when the proxy in front has appended
 * the address it saw — the last entry — so a client cannot choose its own.
 */
export function clientAddress(headers: Headers): string | null {
  const forwarded = headers
    .get("x-forwarded-for")
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return forwarded?.at(-1) ?? null;
}
