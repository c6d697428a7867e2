import { describe, expect, it } from "vitest";
import { isForbiddenAddress, parseIPv6 } from "./ip.ts";

describe("isForbiddenAddress", () => {
  const forbidden = [
    // IPv4 special-purpose ranges
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    // IPv6 loopback, unspecified, local scopes, multicast
    "::1",
    "::",
    "[::1]",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "fec0::1",
    "fc00::1",
    "fd12:3456:789a::1",
    "ff02::1",
    "ff0e::1",
    "100::1",
    // IPv4-mapped, in both spellings, and IPv4-compatible
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "::7f00:1",
    "::8.8.8.8", // deprecated IPv4-compatible form is never public
    "::ffff:0:127.0.0.1", // IPv4-translated
    // NAT64 and 6to4 embedding a private IPv4
    "64:ff9b::127.0.0.1",
    "64:ff9b::a00:1",
    "64:ff9b:1::1", // local-use NAT64
    "2002:7f00:1::1",
    "2002:c0a8:101::1",
    "2002:a9fe:a9fe::",
    // IETF special ranges inside 2000::/3
    "2001::1", // Teredo
    "2001:2::1", // benchmarking
    "2001:10::1", // ORCHID
    "2001:db8::1", // documentation
    "3fff::1", // documentation
    // not an IP at all (including non-canonical IPv4 spellings): fail closed
    "",
    "localhost",
    "example.com",
    "2130706433",
    "0177.0.0.1",
    "0x7f.0.0.1",
    "127.1",
    "01.2.3.4",
    "256.1.1.1",
    "1.2.3",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "12345::1",
    "gggg::1",
  ];
  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "100.63.255.255", // just below CGNAT
    "100.128.0.0", // just above CGNAT
    "172.15.255.255", // just below 172.16/12
    "172.32.0.0", // just above 172.16/12
    "192.169.0.1",
    "198.20.0.1",
    "223.255.255.255",
    "2606:4700::1111",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::808:808", // NAT64 of a public IPv4
    "2002:808:808::1", // 6to4 of a public IPv4
    "[2606:4700::1111]",
  ];

  it.each(forbidden)("forbids %s", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(allowed)("allows public %s", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe("parseIPv6", () => {
  it("expands compressed forms and dotted IPv4 tails", () => {
    expect(parseIPv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("1::")).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("::127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0, 0x7f00, 1]);
    expect(parseIPv6("1:2:3:4:5:6:1.2.3.4")).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(parseIPv6("2606:4700::1111")).toEqual([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]);
  });

  it("rejects malformed input", () => {
    for (const bad of ["1:2:3:4:5:6:7", ":1::", "1:::2", "::1.2.3", "1:2:3:4:5:6:7:8::", "127.0.0.1"]) {
      expect(parseIPv6(bad), bad).toBeNull();
    }
  });
});
