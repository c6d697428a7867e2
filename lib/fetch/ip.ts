/**
 * IP address classification for the SSRF guard. The question asked is "may a server-side fetch
 * connect here?", so the answer is an allowlist: only public unicast addresses pass; anything
 * unparseable is treated as forbidden (fail closed).
 */

/** [network, prefix length] pairs of IPv4 ranges that are not public unicast (IANA special-purpose registry). */
const FORBIDDEN_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network", includes the unspecified address
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata endpoints live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation TEST-NET-1
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation TEST-NET-2
  ["203.0.113.0", 24], // documentation TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, includes 255.255.255.255 broadcast
];

const FORBIDDEN_V4_RANGES = FORBIDDEN_V4.map(([net, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { net: (parseIPv4(net)! & mask) >>> 0, mask };
});

/** Canonical dotted-quad only; other spellings (octal, hex, short forms) are rejected, not guessed at. */
export function parseIPv4(input: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(input);
  if (!m) return null;
  let value = 0;
  for (let i = 1; i <= 4; i++) {
    const part = m[i]!;
    if (part.length > 1 && part.startsWith("0")) return null; // would be octal to some parsers
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value >>> 0;
}

/** Parses an IPv6 address (optionally bracketed, with a zone id, with a dotted IPv4 tail) into 8 hextets. */
export function parseIPv6(input: string): number[] | null {
  let s = input;
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone !== -1) s = s.slice(0, zone);
  if (s.length === 0 || !s.includes(":")) return null;

  let tail: number[] = [];
  const lastColon = s.lastIndexOf(":");
  const last = s.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIPv4(last);
    if (v4 === null) return null;
    tail = [v4 >>> 16, v4 & 0xffff];
    const prefix = s.slice(0, lastColon + 1);
    // "::1.2.3.4" keeps its "::"; "::ffff:1.2.3.4" drops the colon before the IPv4 part.
    s = prefix.endsWith("::") ? prefix : prefix.slice(0, -1);
  }

  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    for (const g of part.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0]!);
  if (head === null) return null;
  if (halves.length === 1) {
    const groups = [...head, ...tail];
    return groups.length === 8 ? groups : null;
  }
  const rest = parseGroups(halves[1]!);
  if (rest === null) return null;
  const known = head.length + rest.length + tail.length;
  if (known > 7) return null; // "::" must stand for at least one zero group
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

function isForbiddenV4(addr: number): boolean {
  return FORBIDDEN_V4_RANGES.some(({ net, mask }) => (addr & mask) >>> 0 === net);
}

function embeddedV4(hi: number, lo: number): number {
  return ((hi << 16) | lo) >>> 0;
}

function isForbiddenV6(h: number[]): boolean {
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  // IPv4-mapped ::ffff:a.b.c.d — the OS connects to the embedded IPv4 address.
  if (zeros(0, 5) && h[5] === 0xffff) return isForbiddenV4(embeddedV4(h[6]!, h[7]!));
  // NAT64 well-known prefix 64:ff9b::/96 — a translator forwards to the embedded IPv4 address.
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return isForbiddenV4(embeddedV4(h[6]!, h[7]!));
  // Everything outside global unicast 2000::/3 — ::, ::1, IPv4-compatible ::/96, local-use NAT64,
  // discard 100::/64, unique-local fc00::/7, link-local fe80::/10, site-local, multicast ff00::/8.
  if ((h[0]! & 0xe000) !== 0x2000) return true;
  // 6to4 2002::/16 tunnels to the embedded IPv4 address.
  if (h[0] === 0x2002) return isForbiddenV4(embeddedV4(h[1]!, h[2]!));
  // 2001::/23 IETF protocol assignments (Teredo, benchmarking, ORCHID, ...).
  if (h[0] === 0x2001 && h[1]! < 0x0200) return true;
  if (h[0] === 0x2001 && h[1] === 0x0db8) return true; // documentation
  if (h[0] === 0x3fff && (h[1]! & 0xf000) === 0) return true; // documentation 3fff::/20
  return false;
}

/** True for anything that is not a public unicast address, including input that is not an IP at all. */
export function isForbiddenAddress(ip: string): boolean {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return isForbiddenV4(v4);
  const v6 = parseIPv6(ip);
  if (v6 !== null) return isForbiddenV6(v6);
  return true;
}
