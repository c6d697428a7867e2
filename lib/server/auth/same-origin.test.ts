import { describe, expect, it } from "vitest";
import { isSameOrigin } from "./same-origin.ts";
import { publicOrigin, requestOrigin } from "./settings.ts";

// `next start` hands route handlers a URL rebuilt as localhost, whatever the browser used.
const asNextSeesIt = (headers: Record<string, string>) =>
  new Request("http://localhost:3000/api/runs", { method: "POST", headers });

describe("requestOrigin", () => {
  it("is the origin the browser used (its Host header), not the URL Next.js rebuilt", () => {
    expect(requestOrigin(asNextSeesIt({ host: "127.0.0.1:41234" }), {})).toBe("http://127.0.0.1:41234");
    expect(requestOrigin(asNextSeesIt({ host: "research.lan:3000" }), {})).toBe("http://research.lan:3000");
    expect(requestOrigin(new Request("http://localhost:3000/x"), {})).toBe("http://localhost:3000");
  });

  it("believes a proxy's X-Forwarded-Host and -Proto only with TRUST_PROXY", () => {
    const req = asNextSeesIt({
      host: "10.0.0.5:3000",
      "x-forwarded-host": "research.example.org, 10.0.0.1",
      "x-forwarded-proto": "https",
    });
    expect(requestOrigin(req, {})).toBe("http://10.0.0.5:3000");
    expect(requestOrigin(req, { TRUST_PROXY: "true" })).toBe("https://research.example.org");
  });

  it("links use APP_URL when set, else the browser's origin", () => {
    const req = asNextSeesIt({ host: "127.0.0.1:41234" });
    expect(publicOrigin(req, {})).toBe("http://127.0.0.1:41234");
    expect(publicOrigin(req, { APP_URL: "https://research.example.org/app" })).toBe(
      "https://research.example.org",
    );
  });
});

describe("isSameOrigin", () => {
  it("accepts the page's own origin however the server was reached", () => {
    for (const host of ["127.0.0.1:41234", "localhost:3000", "192.168.1.20:3000"]) {
      expect(isSameOrigin(asNextSeesIt({ host, origin: `http://${host}` }), {}), host).toBe(true);
    }
  });

  it("refuses another site, even one naming our host in its path or as a subdomain", () => {
    for (const origin of ["https://evil.example", "http://127.0.0.1.evil.example", "http://127.0.0.1:9"]) {
      expect(isSameOrigin(asNextSeesIt({ host: "127.0.0.1:41234", origin }), {}), origin).toBe(false);
    }
  });

  it("accepts APP_URL's origin, and without Origin follows Fetch Metadata", () => {
    const env = { APP_URL: "https://research.example.org" };
    expect(
      isSameOrigin(asNextSeesIt({ host: "10.0.0.5", origin: "https://research.example.org" }), env),
    ).toBe(true);
    expect(isSameOrigin(asNextSeesIt({ "sec-fetch-site": "cross-site" }), {})).toBe(false);
    expect(isSameOrigin(asNextSeesIt({ "sec-fetch-site": "same-origin" }), {})).toBe(true);
    expect(isSameOrigin(asNextSeesIt({}), {})).toBe(true);
  });
});
