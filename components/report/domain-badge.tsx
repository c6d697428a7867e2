/**
 * A site's icon drawn here, not fetched: the domain's first letter on a colour chosen from the
 * domain, so no favicon request leaves the reader's browser.
 */
const HUES = [210, 150, 20, 280, 340, 45, 180, 110, 0, 250];

export function domainHue(domain: string): number {
  let h = 0;
  for (const ch of domain) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return HUES[h % HUES.length];
}

export function DomainBadge({ domain }: { domain: string }) {
  const name = domain.replace(/^www\./, "");
  const letter = (name.match(/[\p{L}\p{N}]/u)?.[0] ?? "?").toUpperCase();
  return (
    <span
      aria-hidden="true"
      className="inline-flex h-5 w-5 shrink-0 items-center justify-center rounded text-xs font-semibold text-white"
      style={{ backgroundColor: `hsl(${domainHue(name)} 55% 38%)` }}
    >
      {letter}
    </span>
  );
}
