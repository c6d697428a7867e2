import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  startFakeServer,
} from "../../test/support/fake-http.ts";
import {
  createSearch,
  createSearchFromProviders,
  normalizeUrl,
  parseSearchProviders,
  SearchConfigError,
  SearchFailedError,
  type SearchProvider,
  type SearchResult,
} from "./index.ts";

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function fake(handler: (req: RecordedRequest) => FakeReply): Promise<FakeServer> {
  const s = await startFakeServer(handler);
  servers.push(s);
  return s;
}

function searxngResults(urls: string[]) {
  return {
    query: "q",
    results: urls.map((url, i) => ({ url, title: `sx ${i}`, content: `searx snippet ${i}`, score: 10 - i })),
  };
}

function tavilyResults(urls: string[]) {
  return {
    query: "q",
    results: urls.map((url, i) => ({
      url,
      title: `tv ${i}`,
      content: `tavily snippet ${i}`,
      score: 1 - i / 10,
      raw_content: `full text ${i}`,
    })),
  };
}

describe("normalizeUrl", () => {
  it.each([
    ["HTTPS://Example.COM:443/a/b/?b=2&a=1#section", "https://example.com/a/b?a=1&b=2"],
    ["http://example.com:80/", "http://example.com/"],
    [
      "https://example.com/page?utm_source=x&utm_medium=y&id=7&fbclid=abc&gclid=def",
      "https://example.com/page?id=7",
    ],
    ["https://example.com:8443/x/", "https://example.com:8443/x"],
    ["  https://example.com/?  ", "https://example.com/"],
    ["library://0f8c7e1a-1111-4222-8333-444455556666", "library://0f8c7e1a-1111-4222-8333-444455556666"],
    ["not a url", "not a url"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });
});

describe("configuration", () => {
  it("defaults to the library and de-duplicates names", () => {
    expect(parseSearchProviders({})).toEqual(["library"]);
    expect(parseSearchProviders({ SEARCH_PROVIDERS: " " })).toEqual(["library"]);
    expect(parseSearchProviders({ SEARCH_PROVIDERS: "Tavily, library,tavily" })).toEqual([
      "tavily",
      "library",
    ]);
  });

  it.each([
    [{ SEARCH_PROVIDERS: "google" }, "SEARCH_PROVIDERS", /unknown search provider "google"/],
    [{ SEARCH_PROVIDERS: "tavily" }, "TAVILY_API_KEY", /tavily.*TAVILY_API_KEY is not set/],
    [{ SEARCH_PROVIDERS: "exa" }, "EXA_API_KEY", /EXA_API_KEY is not set/],
    [{ SEARCH_PROVIDERS: "brave" }, "BRAVE_API_KEY", /BRAVE_API_KEY is not set/],
    [{ SEARCH_PROVIDERS: "searxng" }, "SEARXNG_URL", /SEARXNG_URL is not set/],
    [
      { SEARCH_PROVIDERS: "searxng", SEARXNG_URL: "localhost:8888" },
      "SEARXNG_URL",
      /must be an http\(s\) URL/,
    ],
    [{ SEARCH_PROVIDERS: "searxng", SEARXNG_URL: "not a url" }, "SEARXNG_URL", /not a valid URL/],
  ])("%o → SearchConfigError naming %s", (env, variable, message) => {
    let error: unknown;
    try {
      createSearch({ env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SearchConfigError);
    expect((error as SearchConfigError).variable).toBe(variable);
    expect((error as SearchConfigError).message).toMatch(message);
    expect((error as SearchConfigError).status).toBe(409);
  });

  it("builds the configured web providers in order", () => {
    const search = createSearch({
      env: {
        SEARCH_PROVIDERS: "searxng,tavily,exa,brave",
        SEARXNG_URL: "http://sx:8080",
        TAVILY_API_KEY: "t",
        EXA_API_KEY: "e",
        BRAVE_API_KEY: "b",
      },
    });
    expect(search.providers).toEqual(["searxng", "tavily", "exa", "brave"]);
  });

  it("lets a run's settings override SEARCH_PROVIDERS, validated the same way", () => {
    const env = { SEARCH_PROVIDERS: "library", SEARXNG_URL: "http://sx" };
    expect(createSearch({ env, providers: ["searxng"] }).providers).toEqual(["searxng"]);
    expect(() => createSearch({ env, providers: ["bing"] })).toThrow(SearchConfigError);
  });
});

describe("searching several providers", () => {
  it("merges, de-duplicates URL variants and interleaves by rank", async () => {
    const sx = await fake(() => ({
      json: searxngResults([
        "https://a.example/one",
        "https://B.example/two/?utm_source=searx#top",
        "https://c.example/three",
      ]),
    }));
    const tv = await fake(() => ({
      json: tavilyResults(["https://b.example/two", "https://a.example/one/", "https://d.example/four"]),
    }));
    const search = createSearch({
      env: {
        SEARCH_PROVIDERS: "searxng,tavily",
        SEARXNG_URL: sx.url,
        TAVILY_API_KEY: "k",
        TAVILY_BASE_URL: tv.url,
      },
    });
    const { results, errors } = await search.search("heat pumps", { maxResults: 10 });
    expect(errors).toEqual([]);
    expect(results.map((r) => [r.provider, r.url])).toEqual([
      ["searxng", "https://a.example/one"],
      ["tavily", "https://b.example/two"],
      ["searxng", "https://c.example/three"],
      ["tavily", "https://d.example/four"],
    ]);
    // The duplicate's full text fills in what the first occurrence lacked.
    expect(results[0].content).toBe("full text 1");
    expect(sx.requests[0].query.get("q")).toBe("heat pumps");
    expect(tv.requests[0].json()).toMatchObject({ query: "heat pumps", max_results: 10 });
  });

  it("caps the merged list at maxResults, taking from each provider in turn", async () => {
    const a = provider("a", ["https://x/1", "https://x/2", "https://x/3"]);
    const b = provider("b", ["https://y/1", "https://y/2", "https://y/3"]);
    const { results } = await createSearchFromProviders([a, b]).search("q", { maxResults: 3 });
    expect(results.map((r) => r.url)).toEqual(["https://x/1", "https://y/1", "https://x/2"]);
  });

  it("reports a failing provider and still answers with the other", async () => {
    const sx = await fake(() => ({ json: searxngResults(["https://a.example/"]) }));
    const tv = await fake(() => ({
      status: 401,
      json: { detail: { error: "Unauthorized: missing or invalid API key." } },
    }));
    const search = createSearch({
      env: {
        SEARCH_PROVIDERS: "tavily,searxng",
        SEARXNG_URL: sx.url,
        TAVILY_API_KEY: "bad",
        TAVILY_BASE_URL: tv.url,
      },
    });
    const { results, errors } = await search.search("q");
    expect(results.map((r) => r.url)).toEqual(["https://a.example/"]);
    expect(errors).toEqual([
      {
        provider: "tavily",
        message: "HTTP 401: Unauthorized: missing or invalid API key. (check TAVILY_API_KEY)",
      },
    ]);
  });

  it("throws SearchFailedError listing every provider's error when all fail", async () => {
    const sx = await fake(() => ({ status: 500, text: "Internal Server Error" }));
    const br = await fake(() => ({
      status: 429,
      json: {
        type: "ErrorResponse",
        error: { code: "RATE_LIMITED", detail: "Request rate limit exceeded for plan." },
      },
    }));
    const search = createSearch({
      env: {
        SEARCH_PROVIDERS: "searxng,brave",
        SEARXNG_URL: sx.url,
        BRAVE_API_KEY: "k",
        BRAVE_BASE_URL: br.url,
      },
    });
    const error = await search.search("q").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SearchFailedError);
    expect((error as SearchFailedError).errors).toEqual([
      { provider: "searxng", message: "HTTP 500: Internal Server Error" },
      {
        provider: "brave",
        message:
          "HTTP 429: RATE_LIMITED: Request rate limit exceeded for plan. (rate limit or quota exceeded)",
      },
    ]);
    expect((error as Error).message).toMatch(
      /All search providers failed: searxng: HTTP 500.*; brave: HTTP 429/,
    );
  });

  it("gives up on a provider after its timeout and keeps the others' results", async () => {
    const slow: SearchProvider = { name: "slow", search: () => new Promise(() => {}) };
    const { results, errors } = await createSearchFromProviders([slow, provider("fast", ["https://f/1"])], {
      timeoutMs: 100,
    }).search("q");
    expect(results.map((r) => r.url)).toEqual(["https://f/1"]);
    expect(errors).toEqual([{ provider: "slow", message: "no answer within 100 ms" }]);
  });

  it("rejects at once with the abort reason when the caller aborts, and aborts the requests", async () => {
    const sx = await fake(() => ({ json: searxngResults(["https://a/"]), delayMs: 5_000 }));
    const search = createSearch({ env: { SEARCH_PROVIDERS: "searxng", SEARXNG_URL: sx.url } });
    const ac = new AbortController();
    const seen: AbortSignal[] = [];
    const watcher: SearchProvider = {
      name: "watcher",
      search: (_q, { signal }) => {
        if (signal) seen.push(signal);
        return new Promise(() => {}); // ignores the signal on purpose
      },
    };
    const started = Date.now();
    const both = createSearchFromProviders([watcher]);
    setTimeout(() => ac.abort(new Error("run cancelled")), 50);
    await expect(
      Promise.all([search.search("q", { signal: ac.signal }), both.search("q", { signal: ac.signal })]),
    ).rejects.toThrow("run cancelled");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen[0].aborted).toBe(true);
    await expect(search.search("q", { signal: ac.signal })).rejects.toThrow("run cancelled");
  });

  it("refuses an empty query", async () => {
    await expect(createSearchFromProviders([provider("a", [])]).search("   ")).rejects.toThrow(/empty/);
  });

  it("drops U+0000 from every hit's text (PostgreSQL cannot store it)", async () => {
    const nul = "\u0000";
    const withNul: SearchProvider = {
      name: "nul",
      async search() {
        return [
          {
            url: "https://a.example/x",
            title: `Ti${nul}tle`,
            snippet: `snip${nul}pet`,
            content: `full${nul} text`,
            provider: "nul",
          },
        ];
      },
    };
    const { results } = await createSearchFromProviders([withNul]).search("q");
    expect(results).toEqual([
      {
        url: "https://a.example/x",
        title: "Title",
        snippet: "snippet",
        content: "full text",
        provider: "nul",
      },
    ]);
  });
});

function provider(name: string, urls: string[]): SearchProvider {
  return {
    name,
    async search(_q, { maxResults }) {
      return urls
        .slice(0, maxResults)
        .map((url): SearchResult => ({ url, title: url, snippet: "", provider: name }));
    },
  };
}
