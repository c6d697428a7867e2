import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isIP, type LookupFunction } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FetchRefusalReason, FetchRefusedError, parseAllowedHosts, safeFetch } from "./safe-fetch.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

interface TestServer {
  server: Server;
  port: number;
  origin: string;
  hits: string[];
}

async function startServer(handler: Handler): Promise<TestServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req, res, new URL(req.url ?? "/", "http://localhost"));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { server, port, origin: `http://127.0.0.1:${port}`, hits };
}

async function stopServer(s: TestServer | undefined): Promise<void> {
  if (!s) return;
  s.server.closeAllConnections();
  await new Promise((resolve) => s.server.close(resolve));
}

/** Serves a body in slow pieces until the client goes away. */
function drip(res: ServerResponse, everyMs: number) {
  res.writeHead(200, { "content-type": "text/plain" });
  res.write("start ");
  const timer = setInterval(() => res.write("."), everyMs);
  res.on("close", () => clearInterval(timer));
}

const mainRoutes: Handler = (_req, res, url) => {
  switch (url.pathname) {
    case "/ok":
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end("hello, world");
      return;
    case "/page":
      res.writeHead(200, { "content-type": "text/html; charset=UTF-8" });
      res.end("<html><head><title>t</title></head><body><p>page</p></body></html>");
      return;
    case "/redirect": {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/ok" });
      res.end();
      return;
    }
    case "/chain": {
      // /chain?n=3 redirects 3 times (relative Location) before answering.
      const n = Number(url.searchParams.get("n") ?? "0");
      if (n > 0) res.writeHead(301, { location: `/chain?n=${n - 1}` }).end();
      else res.writeHead(200, { "content-type": "text/plain" }).end("end of chain");
      return;
    }
    case "/loop":
      res.writeHead(307, { location: "/loop" }).end();
      return;
    case "/big-declared":
      res.writeHead(200, { "content-type": "text/plain", "content-length": "5000" });
      res.end("x".repeat(5000));
      return;
    case "/big-chunked":
      // No content-length: the limit must be enforced while streaming.
      res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 50; i++) res.write("y".repeat(100));
      res.end();
      return;
    case "/drip":
      drip(res, 40);
      return;
    case "/stall":
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
      return;
    case "/image":
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      return;
    case "/no-type":
      res.writeHead(200);
      res.end("untyped");
      return;
    case "/missing":
      res.writeHead(404, { "content-type": "text/html" }).end("not here");
      return;
    default:
      res.writeHead(500).end();
  }
};

let main: TestServer;
let internal: TestServer;

beforeAll(async () => {
  main = await startServer(mainRoutes);
  // Stands for an internal service: never in allowedHosts, must never receive a request.
  internal = await startServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" }).end("internal secret");
  });
});

// Each test asserts that the internal service saw no request, so start every test from zero.
beforeEach(() => {
  internal.hits.length = 0;
});

afterAll(async () => {
  await stopServer(main);
  await stopServer(internal);
});

function allowMain(): string[] {
  return [`127.0.0.1:${main.port}`];
}

/** A DNS stub: known names resolve to the given addresses, others fail like ENOTFOUND. */
function fakeLookup(table: Record<string, string[]>, calls: string[] = []): LookupFunction {
  return (hostname, options, callback) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) {
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      callback(err, "");
      return;
    }
    const list = addresses.map((address) => ({ address, family: isIP(address) }));
    if (options.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

async function refusal(p: Promise<unknown>): Promise<FetchRefusedError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(FetchRefusedError);
    return e as FetchRefusedError;
  }
  throw new Error("expected the fetch to be refused, but it succeeded");
}

async function expectRefused(p: Promise<unknown>, reason: FetchRefusalReason): Promise<FetchRefusedError> {
  const e = await refusal(p);
  expect(e.reason, e.message).toBe(reason);
  return e;
}

describe("safeFetch refuses", () => {
  it("loopback, mapped, unspecified and metadata IP literals before connecting", async () => {
    const urls = [
      `${internal.origin}/`,
      `http://[::1]:${internal.port}/`,
      `http://[::ffff:127.0.0.1]:${internal.port}/`,
      `http://[::ffff:7f00:1]:${internal.port}/`,
      "http://0.0.0.0/",
      `http://0.0.0.0:${internal.port}/`,
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]/",
      "http://10.0.0.1/",
      "http://192.168.1.1/",
    ];
    for (const url of urls) {
      const e = await expectRefused(safeFetch(url), "private_address");
      expect(e.url).toBe(new URL(url).href);
    }
    expect(internal.hits).toEqual([]);
  });

  it("non-canonical IPv4 spellings of loopback (decimal, octal, hex)", async () => {
    for (const url of [
      "http://2130706433/",
      "http://0177.0.0.1/",
      "http://0x7f.0.0.1/",
      "http://0x7f000001/",
      "http://127.1/",
    ]) {
      const e = await expectRefused(safeFetch(url), "private_address");
      expect(e.url).toBe("http://127.0.0.1/");
    }
  });

  it("other schemes, credentials and invalid URLs", async () => {
    await expectRefused(safeFetch("ftp://example.com/file.txt"), "scheme");
    await expectRefused(safeFetch("file:///etc/passwd"), "scheme");
    await expectRefused(safeFetch("javascript:alert(1)"), "scheme");
    await expectRefused(safeFetch("http://user:pw@example.com/"), "credentials");
    await expectRefused(safeFetch("http://user@example.com/"), "credentials");
    await expectRefused(safeFetch("not a url"), "invalid_url");
    await expectRefused(safeFetch("http://"), "invalid_url");
  });

  it("a hostname resolving to loopback (localhost)", async () => {
    const before = main.hits.length;
    // Even with the IP literal of the same server allowed: the allowance is per host name.
    await expectRefused(
      safeFetch(`http://localhost:${main.port}/ok`, { allowedHosts: allowMain() }),
      "private_address",
    );
    expect(main.hits.length).toBe(before);
  });

  it("a public-looking name whose DNS answer is loopback", async () => {
    const calls: string[] = [];
    const lookup = fakeLookup({ "public.example": ["127.0.0.1"] }, calls);
    const e = await expectRefused(
      safeFetch(`http://public.example:${internal.port}/`, { lookup }),
      "private_address",
    );
    expect(e.message).toContain("127.0.0.1");
    expect(calls).toContain("public.example");
    expect(internal.hits).toEqual([]);
  });

  it("a DNS answer where only one of several addresses is private (every address is checked)", async () => {
    const lookup = fakeLookup({ "mixed.example": ["93.184.215.14", "127.0.0.1"] });
    await expectRefused(
      safeFetch(`http://mixed.example:${internal.port}/`, { lookup, timeoutMs: 1000 }),
      "private_address",
    );
    expect(internal.hits).toEqual([]);
  });

  it("names that do not resolve", async () => {
    const lookup = fakeLookup({});
    const e = await expectRefused(safeFetch("http://nowhere.example/", { lookup }), "dns_failed");
    expect(e.url).toBe("http://nowhere.example/");
  });

  it("a redirect from an allowed host to a non-allowed loopback port", async () => {
    const target = `${internal.origin}/`;
    const start = `${main.origin}/redirect?to=${encodeURIComponent(target)}`;
    const e = await expectRefused(safeFetch(start, { allowedHosts: allowMain() }), "private_address");
    expect(e.url).toBe(target);
    expect(internal.hits).toEqual([]);
  });

  it("a redirect from an allowed public-looking name to loopback via DNS and via mapped IPv6", async () => {
    const lookup = fakeLookup({ "public.example": ["127.0.0.1"], "evil.example": ["::1"] });
    const allowedHosts = [`public.example:${main.port}`];
    for (const to of [
      `http://evil.example:${internal.port}/`,
      `http://[::ffff:127.0.0.1]:${internal.port}/`,
      "http://169.254.169.254/latest/meta-data/",
    ]) {
      const start = `http://public.example:${main.port}/redirect?to=${encodeURIComponent(to)}`;
      await expectRefused(safeFetch(start, { allowedHosts, lookup }), "private_address");
    }
    expect(internal.hits).toEqual([]);
  });

  it("redirects to other schemes or with credentials", async () => {
    const opts = { allowedHosts: allowMain() };
    const to = (u: string) => `${main.origin}/redirect?to=${encodeURIComponent(u)}`;
    await expectRefused(safeFetch(to("file:///etc/passwd"), opts), "scheme");
    await expectRefused(safeFetch(to(`http://u:p@127.0.0.1:${main.port}/ok`), opts), "credentials");
  });

  it("a redirect loop after 5 hops", async () => {
    const e = await expectRefused(
      safeFetch(`${main.origin}/loop`, { allowedHosts: allowMain() }),
      "too_many_redirects",
    );
    expect(e.url).toBe(`${main.origin}/loop`);
    expect(e.limit).toBe(5); // the limit passed, kept apart from the English message for the UI
  });

  it("more redirects than maxRedirects", async () => {
    const opts = { allowedHosts: allowMain() };
    await expectRefused(safeFetch(`${main.origin}/chain?n=6`, opts), "too_many_redirects");
    const once = await expectRefused(
      safeFetch(`${main.origin}/chain?n=2`, { ...opts, maxRedirects: 1 }),
      "too_many_redirects",
    );
    expect(once.limit).toBe(1);
  });

  it("bodies over maxBytes, with and without content-length", async () => {
    const opts = { allowedHosts: allowMain(), maxBytes: 1000 };
    const declared = await expectRefused(safeFetch(`${main.origin}/big-declared`, opts), "too_large");
    expect(declared.message).toContain("Content-Length");
    const streamed = await expectRefused(safeFetch(`${main.origin}/big-chunked`, opts), "too_large");
    expect(streamed.message).not.toContain("Content-Length");
    expect([declared.limit, streamed.limit]).toEqual([1000, 1000]);
  });

  it("a slowly dripping body once the whole-fetch timeout passes", async () => {
    const started = Date.now();
    const e = await expectRefused(
      safeFetch(`${main.origin}/drip`, { allowedHosts: allowMain(), timeoutMs: 300 }),
      "timeout",
    );
    expect(e.limit).toBe(300);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1500);
  });

  it("promptly when the caller's signal aborts, and at once when it already has", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    await expectRefused(
      safeFetch(`${main.origin}/stall`, { allowedHosts: allowMain(), signal: controller.signal }),
      "aborted",
    );
    expect(Date.now() - started).toBeLessThan(1000);

    const before = main.hits.length;
    await expectRefused(
      safeFetch(`${main.origin}/ok`, { allowedHosts: allowMain(), signal: AbortSignal.abort() }),
      "aborted",
    );
    expect(main.hits.length).toBe(before);
  });

  it("content types outside the allowlist", async () => {
    const opts = { allowedHosts: allowMain() };
    const e = await expectRefused(safeFetch(`${main.origin}/image`, opts), "content_type");
    expect(e.message).toContain("image/png");
    expect(e.contentType).toBe("image/png");
    const none = await expectRefused(safeFetch(`${main.origin}/no-type`, opts), "content_type");
    expect(none.contentType).toBe("");
  });

  it("HTTP error statuses, with the status", async () => {
    const e = await expectRefused(
      safeFetch(`${main.origin}/missing`, { allowedHosts: allowMain() }),
      "http_error",
    );
    expect(e.status).toBe(404);
  });

  it("a connection nobody answers as a network error", async () => {
    const closed = await startServer(() => {});
    const port = closed.port;
    await stopServer(closed);
    const e = await expectRefused(
      safeFetch(`http://127.0.0.1:${port}/`, { allowedHosts: [`127.0.0.1:${port}`] }),
      "network",
    );
    // The network stack's own words, apart from the English "Network error: " around them.
    expect(e.detail).toMatch(/\S/);
    expect(e.message).toBe(`Network error: ${e.detail}`);
  });
});

describe("safeFetch fetches", () => {
  it("an allowed host:port, returning the bytes, type and charset", async () => {
    const res = await safeFetch(`${main.origin}/ok`, { allowedHosts: allowMain() });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${main.origin}/ok`);
    expect(res.contentType).toBe("text/plain");
    expect(res.charset).toBe("utf-8");
    expect(new TextDecoder().decode(res.body)).toBe("hello, world");
    expect(res.redirects).toEqual([]);
  });

  it("an allowed host without port, and an allowed name through the injected lookup", async () => {
    const byHost = await safeFetch(`${main.origin}/page`, { allowedHosts: ["127.0.0.1"] });
    expect(byHost.contentType).toBe("text/html");

    const lookup = fakeLookup({ "intranet.example": ["127.0.0.1"] });
    const byName = await safeFetch(`http://intranet.example:${main.port}/ok`, {
      allowedHosts: [`INTRANET.example:${main.port}`],
      lookup,
    });
    expect(new TextDecoder().decode(byName.body)).toBe("hello, world");
  });

  it("up to 5 redirects, reporting the chain", async () => {
    const res = await safeFetch(`${main.origin}/chain?n=5`, { allowedHosts: allowMain() });
    expect(res.url).toBe(`${main.origin}/chain?n=0`);
    expect(res.redirects).toEqual([5, 4, 3, 2, 1].map((n) => `${main.origin}/chain?n=${n}`));
    expect(new TextDecoder().decode(res.body)).toBe("end of chain");
  });

  it("a body exactly at maxBytes", async () => {
    const res = await safeFetch(`${main.origin}/big-declared`, { allowedHosts: allowMain(), maxBytes: 5000 });
    expect(res.body.byteLength).toBe(5000);
  });

  it("sends the configured user agent", async () => {
    let seen: string | undefined;
    const ua = await startServer((req, res) => {
      seen = req.headers["user-agent"];
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
    try {
      await safeFetch(`${ua.origin}/`, { allowedHosts: [`127.0.0.1:${ua.port}`], userAgent: "TestAgent/1" });
      expect(seen).toBe("TestAgent/1");
    } finally {
      await stopServer(ua);
    }
  });
});

describe("parseAllowedHosts", () => {
  it("parses and normalises the comma list", () => {
    expect(parseAllowedHosts({})).toEqual([]);
    expect(parseAllowedHosts({ FETCH_ALLOWED_HOSTS: "" })).toEqual([]);
    expect(
      parseAllowedHosts({
        FETCH_ALLOWED_HOSTS: " Intranet.Local , 10.0.0.5:8080,[::1]:3000,0x7f.0.0.1:80 ,",
      }),
    ).toEqual(["intranet.local", "10.0.0.5:8080", "[::1]:3000", "127.0.0.1:80"]);
  });

  it("throws on entries that are not host or host:port", () => {
    for (const bad of ["http://intranet/", "host:99999", "user@host", "a/b", "host:port"]) {
      expect(() => parseAllowedHosts({ FETCH_ALLOWED_HOSTS: bad }), bad).toThrow(/FETCH_ALLOWED_HOSTS/);
    }
  });

  it("matches host:port exactly and bare hosts on any port", async () => {
    const otherPort = `127.0.0.1:${main.port + 1 === internal.port ? main.port + 2 : main.port + 1}`;
    await expectRefused(safeFetch(`${main.origin}/ok`, { allowedHosts: [otherPort] }), "private_address");
    const ok = await safeFetch(`${main.origin}/ok`, {
      allowedHosts: parseAllowedHosts({ FETCH_ALLOWED_HOSTS: `127.0.0.1:${main.port}` }),
    });
    expect(ok.status).toBe(200);
  });
});
