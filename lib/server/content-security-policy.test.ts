import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy } from "../../proxy.ts";
import { newNonce, pageContentSecurityPolicy } from "./content-security-policy.ts";

const directives = (policy: string) =>
  new Map(
    policy.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

describe("the pages' Content-Security-Policy", () => {
  it("a nonce is 16 random bytes, fresh every time", () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const n of nonces) expect(Buffer.from(n, "base64")).toHaveLength(16);
  });

  it("runs only the nonce's scripts, loads nothing from elsewhere and cannot be framed", () => {
    const d = directives(pageContentSecurityPolicy("abc123==", { dev: false }));
    expect(d.get("script-src")).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("img-src")).toEqual(["'self'", "data:"]);
    expect(d.get("connect-src")).toEqual(["'self'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("adds 'unsafe-eval' in development only", () => {
    expect(pageContentSecurityPolicy("n", { dev: false })).not.toContain("unsafe-eval");
    expect(directives(pageContentSecurityPolicy("n", { dev: true })).get("script-src")).toContain(
      "'unsafe-eval'",
    );
  });

  it("the proxy answers with the policy and hands it, with the nonce, to the page's rendering", async () => {
    const response = await proxy(new NextRequest("http://app.test/runs/1"));
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = policy.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeDefined();
    // NextResponse.next({ request: { headers } }) forwards overridden request headers this way.
    expect(response.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(response.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    const other = (await proxy(new NextRequest("http://app.test/"))).headers.get("content-security-policy");
    expect(other).not.toBe(policy);
  });

  it("the proxy refuses a multipart POST to a page whose body is not a readable form, 400", async () => {
    const post = (contentType: string, body: BodyInit, headers: Record<string, string> = {}) =>
      proxy(
        new NextRequest("http://app.test/no/such/page", {
          method: "POST",
          headers: { "content-type": contentType, ...headers },
          body,
        }),
      );
    for (const refused of [
      await post("multipart/form-data", "abc"),
      await post("multipart/form-data; boundary=xyz", "abc"),
    ]) {
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.code).toBe("bad_request");
    }
    const form = new FormData();
    form.set("$ACTION_ID_abc", "");
    form.set("question", "Heat pumps?");
    const request = new Request("http://x/", { method: "POST", body: form });
    const readable = await post(request.headers.get("content-type") as string, await request.arrayBuffer());
    expect(readable.status).toBe(200);
    expect(readable.headers.get("content-security-policy")).toBeTruthy();
    // JavaScript's action calls are Next.js's to answer.
    expect((await post("multipart/form-data", "abc", { "next-action": "7f00" })).status).toBe(200);
  });

  it("the proxy leaves out the API and static files", () => {
    const source = new RegExp(`^${config.matcher[0].source}$`);
    for (const page of ["/", "/runs/1", "/share/abc", "/library", "/knowledge", "/apiary"]) {
      expect(source.test(page), page).toBe(true);
    }
    for (const other of ["/api/runs", "/_next/static/chunks/a.js", "/icon.svg", "/robots.txt"]) {
      expect(source.test(other), other).toBe(false);
    }
  });
});
