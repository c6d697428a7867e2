import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  startFakeServer,
} from "../../test/support/fake-http.ts";
import { startWebFixture } from "../../test/support/web-fixture.ts";
import { braveProvider } from "./brave.ts";
import { SearchProviderError } from "./errors.ts";
import { exaProvider } from "./exa.ts";
import { searxngProvider } from "./searxng.ts";
import { tavilyProvider } from "./tavily.ts";

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

async function providerError(p: Promise<unknown>): Promise<SearchProviderError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SearchProviderError);
  return e as SearchProviderError;
}

// Response bodies as the real APIs return them (trimmed to two results, fields kept).
const SEARXNG_RESPONSE = {
  query: "heat pump cop",
  number_of_results: 0,
  results: [
    {
      url: "https://www.energy.gov/energysaver/heat-pump-systems",
      title: "Heat Pump Systems | Department of Energy",
      content: "A heat pump can trim the amount of electricity you use for heating by approximately 50%.",
      engine: "duckduckgo",
      parsed_url: ["https", "www.energy.gov", "/energysaver/heat-pump-systems", "", "", ""],
      template: "default.html",
      engines: ["duckduckgo", "brave"],
      positions: [1, 2],
      publishedDate: null,
      score: 4.5,
      category: "general",
    },
    {
      url: "https://en.wikipedia.org/wiki/Coefficient_of_performance",
      title: "Coefficient of performance - Wikipedia",
      content: "The coefficient of performance or COP of a heat pump is a ratio of useful heating.",
      engine: "wikipedia",
      parsed_url: ["https", "en.wikipedia.org", "/wiki/Coefficient_of_performance", "", "", ""],
      template: "default.html",
      engines: ["wikipedia"],
      positions: [2],
      publishedDate: "2024-01-05T00:00:00",
      score: 1.2,
      category: "general",
    },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ["heat pump efficiency"],
  unresponsive_engines: [["google", "CAPTCHA"]],
};

const TAVILY_RESPONSE = {
  query: "Who is Leo Messi?",
  follow_up_questions: null,
  answer: null,
  images: [],
  results: [
    {
      url: "https://en.wikipedia.org/wiki/Lionel_Messi",
      title: "Lionel Messi - Wikipedia",
      content: "Lionel Andrés 'Leo' Messi is an Argentine professional footballer who plays as a forward.",
      score: 0.81025416,
      raw_content: null,
      favicon: "https://en.wikipedia.org/static/favicon/wikipedia.ico",
    },
    {
      url: "https://www.espn.com/soccer/player/_/id/45843/lionel-messi",
      title: "Lionel Messi - Inter Miami CF Forward - ESPN",
      content: "View the profile of Inter Miami CF Forward Lionel Messi on ESPN.",
      score: 0.6641,
      raw_content: "Lionel Messi\nForward, Inter Miami CF\nFull career statistics...",
      published_date: "Mon, 03 Jun 2024 14:00:00 GMT",
    },
  ],
  response_time: "1.67",
  request_id: "123e4567-e89b-12d3-a456-426614174111",
};

const EXA_RESPONSE = {
  requestId: "b5947044c4b78efa9552a7c89b306d95",
  resolvedSearchType: "neural",
  searchType: "auto",
  results: [
    {
      id: "https://arxiv.org/abs/2307.06435",
      title: "A Comprehensive Overview of Large Language Models",
      url: "https://arxiv.org/abs/2307.06435",
      publishedDate: "2023-07-12T00:00:00.000Z",
      author: "Humza Naveed, Asad Ullah Khan",
      score: 0.3836,
      text: "Large Language Models (LLMs) have recently demonstrated remarkable capabilities in natural language processing tasks and beyond. This success of LLMs has led to a large influx of research contributions in this direction.",
      image: "https://arxiv.org/static/browse/0.3.4/images/arxiv-logo-fb.png",
      favicon: "https://arxiv.org/static/browse/0.3.4/images/icons/favicon-32x32.png",
    },
    {
      id: "https://example.com/llm-survey",
      title: "LLM survey notes",
      url: "https://example.com/llm-survey",
      publishedDate: null,
      author: null,
      text: "Notes.",
      highlights: ["LLMs are trained on large corpora.", "Scaling laws predict loss."],
    },
  ],
  costDollars: { total: 0.005, search: { neural: 0.005 } },
};

const BRAVE_RESPONSE = {
  query: {
    original: "brave search",
    show_strict_warning: false,
    is_navigational: true,
    spellcheck_off: true,
  },
  mixed: { type: "mixed", main: [{ type: "web", index: 0, all: false }], top: [], side: [] },
  type: "search",
  web: {
    type: "search",
    results: [
      {
        title: "Private Search Engine - <strong>Brave</strong> Search",
        url: "https://search.brave.com/",
        is_source_local: false,
        is_source_both: false,
        description:
          "Search the web privately. <strong>Brave</strong> Search doesn&#x27;t track you &amp; your queries.",
        page_age: "2023-05-24T19:20:03",
        profile: { name: "Brave", url: "https://search.brave.com/", long_name: "search.brave.com" },
        language: "en",
        family_friendly: true,
        type: "search_result",
        subtype: "generic",
        meta_url: { scheme: "https", netloc: "search.brave.com", hostname: "search.brave.com", path: "" },
        age: "May 24, 2023",
      },
      {
        title: "Brave (web browser) - Wikipedia",
        url: "https://en.wikipedia.org/wiki/Brave_(web_browser)",
        description: "<strong>Brave</strong> is a free and open-source web browser.",
        age: "2 days ago",
        type: "search_result",
      },
    ],
    family_friendly: true,
  },
};

describe("searxng", () => {
  it("sends GET /search?q=&format=json under the instance's path and maps results", async () => {
    const s = await fake(() => ({ json: SEARXNG_RESPONSE }));
    const results = await searxngProvider({ baseUrl: `${s.url}/searx` }).search("heat pump cop", {
      maxResults: 5,
    });
    const [req] = s.requests;
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/searx/search");
    expect(req.query.get("q")).toBe("heat pump cop");
    expect(req.query.get("format")).toBe("json");
    expect(results).toEqual([
      {
        url: "https://www.energy.gov/energysaver/heat-pump-systems",
        title: "Heat Pump Systems | Department of Energy",
        snippet: "A heat pump can trim the amount of electricity you use for heating by approximately 50%.",
        provider: "searxng",
        score: 4.5,
      },
      {
        url: "https://en.wikipedia.org/wiki/Coefficient_of_performance",
        title: "Coefficient of performance - Wikipedia",
        snippet: "The coefficient of performance or COP of a heat pump is a ratio of useful heating.",
        provider: "searxng",
        score: 1.2,
        publishedAt: "2024-01-05T00:00:00",
      },
    ]);
  });

  it("caps results at maxResults", async () => {
    const s = await fake(() => ({ json: SEARXNG_RESPONSE }));
    expect(await searxngProvider({ baseUrl: s.url }).search("x", { maxResults: 1 })).toHaveLength(1);
  });

  it("explains the 403 SearXNG gives when JSON output is disabled", async () => {
    const s = await fake(() => ({ status: 403, text: "<!doctype html><title>403 Forbidden</title>" }));
    const e = await providerError(searxngProvider({ baseUrl: s.url }).search("x", { maxResults: 5 }));
    expect(e.status).toBe(403);
    expect(e.message).toMatch(/HTTP 403: 403 Forbidden.*search\.formats/);
  });

  it("works against the project's SearXNG-compatible web fixture", async () => {
    const web = await startWebFixture({ port: 0 });
    try {
      const results = await searxngProvider({ baseUrl: web.url }).search("heat pump efficiency", {
        maxResults: 3,
      });
      expect(results.length).toBeGreaterThan(0);
      expect(results[0].url.startsWith(web.url)).toBe(true);
      expect(results[0].title).not.toBe("");
    } finally {
      await web.close();
    }
  });
});

describe("tavily", () => {
  it("POSTs /search with a Bearer key and the query, and maps results", async () => {
    const s = await fake(() => ({ json: TAVILY_RESPONSE }));
    const results = await tavilyProvider({ apiKey: "tvly-test", baseUrl: s.url }).search(
      "Who is Leo Messi?",
      {
        maxResults: 30,
      },
    );
    const [req] = s.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/search");
    expect(req.headers.authorization).toBe("Bearer tvly-test");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.json()).toEqual({
      query: "Who is Leo Messi?",
      max_results: 20, // Tavily's maximum
      search_depth: "basic",
      topic: "general",
    });
    expect(results).toEqual([
      {
        url: "https://en.wikipedia.org/wiki/Lionel_Messi",
        title: "Lionel Messi - Wikipedia",
        snippet: "Lionel Andrés 'Leo' Messi is an Argentine professional footballer who plays as a forward.",
        provider: "tavily",
        score: 0.81025416,
      },
      {
        url: "https://www.espn.com/soccer/player/_/id/45843/lionel-messi",
        title: "Lionel Messi - Inter Miami CF Forward - ESPN",
        snippet: "View the profile of Inter Miami CF Forward Lionel Messi on ESPN.",
        content: "Lionel Messi\nForward, Inter Miami CF\nFull career statistics...",
        provider: "tavily",
        score: 0.6641,
        publishedAt: "Mon, 03 Jun 2024 14:00:00 GMT",
      },
    ]);
  });

  it.each([
    [
      401,
      { detail: { error: "Unauthorized: missing or invalid API key." } },
      /HTTP 401: Unauthorized: missing or invalid API key\. \(check TAVILY_API_KEY\)/,
    ],
    [
      429,
      { detail: { error: "Your request has been blocked due to excessive requests." } },
      /HTTP 429: Your request has been blocked.*\(rate limit or quota exceeded\)/,
    ],
    [500, { detail: { error: "Internal Server Error" } }, /HTTP 500: Internal Server Error$/],
  ])("maps HTTP %i to a readable provider error", async (status, body, message) => {
    const s = await fake(() => ({ status, json: body }));
    const e = await providerError(
      tavilyProvider({ apiKey: "k", baseUrl: s.url }).search("q", { maxResults: 5 }),
    );
    expect(e.provider).toBe("tavily");
    expect(e.status).toBe(status);
    expect(e.message).toMatch(message);
  });
});

describe("exa", () => {
  it("POSTs /search with x-api-key, asks for text contents, and maps results", async () => {
    const s = await fake(() => ({ json: EXA_RESPONSE }));
    const results = await exaProvider({ apiKey: "exa-key", baseUrl: `${s.url}/` }).search("LLM overview", {
      maxResults: 7,
    });
    const [req] = s.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/search");
    expect(req.headers["x-api-key"]).toBe("exa-key");
    expect(req.headers.authorization).toBeUndefined();
    expect(req.json()).toEqual({
      query: "LLM overview",
      type: "auto",
      numResults: 7,
      contents: { text: { maxCharacters: 20000 } },
    });
    expect(results[0]).toEqual({
      url: "https://arxiv.org/abs/2307.06435",
      title: "A Comprehensive Overview of Large Language Models",
      snippet: expect.stringMatching(/^Large Language Models \(LLMs\) have recently demonstrated/),
      content: EXA_RESPONSE.results[0].text,
      provider: "exa",
      score: 0.3836,
      publishedAt: "2023-07-12T00:00:00.000Z",
    });
    expect(results[0].snippet.length).toBeLessThanOrEqual(301);
    // Highlights, when present, are the snippet.
    expect(results[1].snippet).toBe("LLMs are trained on large corpora. … Scaling laws predict loss.");
    expect(results[1].publishedAt).toBeUndefined();
  });

  it.each([
    [
      401,
      { requestId: "r1", error: "Invalid API key", tag: "INVALID_API_KEY" },
      /HTTP 401: Invalid API key \(check EXA_API_KEY\)/,
    ],
    [
      429,
      { requestId: "r2", error: "You've exceeded your rate limit" },
      /HTTP 429: You've exceeded your rate limit \(rate limit/,
    ],
    [500, { requestId: "r3", error: "Internal error" }, /HTTP 500: Internal error$/],
  ])("maps HTTP %i to a readable provider error", async (status, body, message) => {
    const s = await fake(() => ({ status, json: body }));
    const e = await providerError(
      exaProvider({ apiKey: "k", baseUrl: s.url }).search("q", { maxResults: 5 }),
    );
    expect(e.status).toBe(status);
    expect(e.message).toMatch(message);
  });
});

describe("brave", () => {
  it("GETs /res/v1/web/search with X-Subscription-Token and strips <strong> from descriptions", async () => {
    const s = await fake(() => ({ json: BRAVE_RESPONSE }));
    const results = await braveProvider({ apiKey: "BSA-key", baseUrl: s.url }).search("brave search", {
      maxResults: 10,
    });
    const [req] = s.requests;
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/res/v1/web/search");
    expect(req.query.get("q")).toBe("brave search");
    expect(req.query.get("count")).toBe("10");
    expect(req.headers["x-subscription-token"]).toBe("BSA-key");
    expect(req.headers.accept).toBe("application/json");
    expect(results).toEqual([
      {
        url: "https://search.brave.com/",
        title: "Private Search Engine - Brave Search",
        snippet: "Search the web privately. Brave Search doesn't track you & your queries.",
        provider: "brave",
        publishedAt: "2023-05-24T19:20:03",
      },
      {
        url: "https://en.wikipedia.org/wiki/Brave_(web_browser)",
        title: "Brave (web browser) - Wikipedia",
        snippet: "Brave is a free and open-source web browser.",
        provider: "brave",
        publishedAt: "2 days ago",
      },
    ]);
  });

  it("returns no results when Brave's answer has no web section", async () => {
    const s = await fake(() => ({ json: { type: "search", query: { original: "zzqx" } } }));
    expect(await braveProvider({ apiKey: "k", baseUrl: s.url }).search("zzqx", { maxResults: 5 })).toEqual(
      [],
    );
  });

  it.each([
    [
      401,
      {
        type: "ErrorResponse",
        error: {
          id: "e1",
          status: 401,
          code: "SUBSCRIPTION_TOKEN_INVALID",
          detail: "The provided subscription token is invalid.",
          meta: { component: "authentication" },
        },
        time: 1713870000,
      },
      /HTTP 401: SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid\. \(check BRAVE_API_KEY\)/,
    ],
    [
      429,
      {
        type: "ErrorResponse",
        error: {
          id: "e2",
          status: 429,
          code: "RATE_LIMITED",
          detail: "Request rate limit exceeded for plan.",
          meta: { plan: "Free", rate_limit: 1 },
        },
        time: 1713870000,
      },
      /HTTP 429: RATE_LIMITED: Request rate limit exceeded for plan\. \(rate limit or quota exceeded\)/,
    ],
    [500, "upstream connect error", /HTTP 500: upstream connect error$/],
  ])("maps HTTP %i to a readable provider error", async (status, body, message) => {
    const s = await fake(() => (typeof body === "string" ? { status, text: body } : { status, json: body }));
    const e = await providerError(
      braveProvider({ apiKey: "k", baseUrl: s.url }).search("q", { maxResults: 5 }),
    );
    expect(e.status).toBe(status);
    expect(e.message).toMatch(message);
  });
});

describe("transport failures", () => {
  it("reports invalid JSON and unexpected shapes without crashing", async () => {
    const s = await fake((req) =>
      req.query.get("q") === "html"
        ? { text: "<html>oops</html>", contentType: "text/html" }
        : { json: { results: "no" } },
    );
    const p = searxngProvider({ baseUrl: s.url });
    expect((await providerError(p.search("html", { maxResults: 5 }))).message).toMatch(
      /invalid JSON \(text\/html\)/,
    );
    expect((await providerError(p.search("shape", { maxResults: 5 }))).message).toMatch(
      /unexpected response shape at results/,
    );
  });

  it("reports a refused connection", async () => {
    const s = await fake(() => ({ json: {} }));
    const url = s.url;
    await s.close();
    servers = [];
    const e = await providerError(
      tavilyProvider({ apiKey: "k", baseUrl: url }).search("q", { maxResults: 5 }),
    );
    expect(e.message).toMatch(/request failed: ECONNREFUSED/);
  });

  it("rethrows the abort reason untouched when the caller aborts", async () => {
    const s = await fake(() => ({ json: TAVILY_RESPONSE, delayMs: 2_000 }));
    const ac = new AbortController();
    const p = tavilyProvider({ apiKey: "k", baseUrl: s.url }).search("q", {
      maxResults: 5,
      signal: ac.signal,
    });
    setTimeout(() => ac.abort(new Error("cancelled by user")), 50);
    await expect(p).rejects.toThrow("cancelled by user");
  });
});
