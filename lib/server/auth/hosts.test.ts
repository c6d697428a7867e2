import { describe, expect, it } from "vitest";
import { hostnameOf, isAllowedHostname, refusedHostMessage, refusedHostname } from "./hosts.ts";

const headers = (h: Record<string, string>) => new Headers(h);

describe("the Host allowlist (DNS rebinding)", () => {
  it("reads the hostname of a Host header: ports, IPv6 brackets, case and a trailing dot", () => {
    expect(hostnameOf("127.0.0.1:3000")).toBe("127.0.0.1");
    expect(hostnameOf("[::1]:3000")).toBe("::1");
    expect(hostnameOf("LocalHost:80")).toBe("localhost");
    expect(hostnameOf("research.lan.")).toBe("research.lan");
  });

  it("allows IP addresses and localhost, and no other name unless APP_URL or ALLOWED_HOSTS lists it", () => {
    for (const name of ["127.0.0.1", "192.168.1.20", "::1", "localhost"])
      expect(isAllowedHostname(name, {})).toBe(true);
    for (const name of ["rebind.example", "localhost.rebind.example", "127.0.0.1.nip.io", ""]) {
      expect(isAllowedHostname(name, {}), name).toBe(false);
    }
    expect(isAllowedHostname("research.example.org", { APP_URL: "https://Research.example.org/app" })).toBe(
      true,
    );
    const env = { ALLOWED_HOSTS: " research.lan , Box.Local:3000 " };
    expect(isAllowedHostname("research.lan", env)).toBe(true);
    expect(isAllowedHostname("box.local", env)).toBe(true);
    expect(isAllowedHostname("rebind.example", env)).toBe(false);
  });

  it("checks the Host header, else the URL's host, and behind a trusted proxy X-Forwarded-Host too", () => {
    expect(refusedHostname(headers({ host: "rebind.example:3000" }), "http://localhost:3000/", {})).toBe(
      "rebind.example",
    );
    expect(refusedHostname(headers({}), "http://localhost:3000/", {})).toBeNull();
    expect(refusedHostname(headers({}), undefined, {})).toBeNull(); // no name to judge: not a browser
    const forwarded = headers({ host: "127.0.0.1:3000", "x-forwarded-host": "rebind.example" });
    // A client's own X-Forwarded-Host means nothing without TRUST_PROXY, and is checked with it.
    expect(refusedHostname(forwarded, undefined, {})).toBeNull();
    expect(refusedHostname(forwarded, undefined, { TRUST_PROXY: "true" })).toBe("rebind.example");
  });

  it("says which variable to set", () => {
    const message = refusedHostMessage("research.lan");
    expect(message).toContain("ALLOWED_HOSTS=research.lan");
    expect(message).toContain("APP_URL");
  });
});
