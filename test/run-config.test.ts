// POST /api/runs refuses, up front, a run the worker could not carry out for want of
// configuration: a search provider (from the run's settings or SEARCH_PROVIDERS) without its key
// or URL, a per-run model override without its provider's key. 409 not_configured, naming the
// variable to set; nothing is created. Called directly with a Request as a signed-in person, embedded
// PGlite in a temporary DATA_DIR, no in-process worker.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, useFreshAppDatabase } from "./support/app-session.ts";

const VARIABLES = ["SEARCH_PROVIDERS", "TAVILY_API_KEY", "SEARXNG_URL", "ANTHROPIC_API_KEY"];
const saved = Object.fromEntries(VARIABLES.map((k) => [k, process.env[k]]));

type Handler = (req: Request) => Promise<Response>;
let post: Handler;
let list: Handler;
let cookie = "";
let stopApp: () => Promise<void>;

beforeAll(async () => {
  // A usable model (never called here): only the search and override checks are under test.
  stopApp = await useFreshAppDatabase("pglite");
  for (const k of VARIABLES) delete process.env[k];
  cookie = (await signUp("config@example.org")).cookie;
  const route = await import("../app/api/runs/route.ts");
  post = route.POST as Handler;
  list = route.GET as Handler;
}, 60_000);

afterAll(async () => {
  await stopApp();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

async function createRun(settings: Record<string, unknown>) {
  const res = await post(
    new Request("http://localhost/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ question: "Is a heat pump worth it?", settings }),
    }),
  );
  return {
    status: res.status,
    body: (await res.json()) as {
      id?: string;
      warnings?: string[];
      error?: { code: string; message: string; details?: { variable?: string } };
    },
  };
}

async function runCount(): Promise<number> {
  const res = await list(new Request("http://localhost/api/runs", { headers: { cookie } }));
  return ((await res.json()) as { runs: unknown[] }).runs.length;
}

describe("POST /api/runs checks the run's configuration before creating it", () => {
  it("refuses settings.searchProviders naming a provider without its key, naming the variable", async () => {
    const { status, body } = await createRun({ searchProviders: ["library", "tavily"] });
    expect(status).toBe(409);
    expect(body.error?.code).toBe("not_configured");
    expect(body.error?.message).toContain("TAVILY_API_KEY");
    expect(body.error?.message).toContain("settings.searchProviders");
    expect(body.error?.details?.variable).toBe("TAVILY_API_KEY");
    expect(await runCount()).toBe(0);
  });

  it("refuses SEARCH_PROVIDERS naming a provider without its URL when the run names none", async () => {
    process.env.SEARCH_PROVIDERS = "library,searxng";
    try {
      const { status, body } = await createRun({});
      expect(status).toBe(409);
      expect(body.error?.code).toBe("not_configured");
      expect(body.error?.message).toContain("SEARXNG_URL");
      expect(body.error?.details?.variable).toBe("SEARXNG_URL");
      // The run's own choice wins over SEARCH_PROVIDERS.
      expect((await createRun({ searchProviders: ["library"] })).status).toBe(201);
    } finally {
      delete process.env.SEARCH_PROVIDERS;
    }
  });

  it("refuses a per-run model override whose provider has no key", async () => {
    const { status, body } = await createRun({ models: { synthesis: "anthropic:claude-sonnet-4-5" } });
    expect(status).toBe(409);
    expect(body.error?.code).toBe("not_configured");
    expect(body.error?.message).toContain("ANTHROPIC_API_KEY");
  });

  it("skips a chain member whose provider has no key, says so, and stores the chain it keeps", async () => {
    const { status, body } = await createRun({
      models: { supervisor: "anthropic:claude-sonnet-4-5, openai-compatible:scripted-model" },
    });
    expect(status).toBe(201);
    expect(body.warnings).toEqual([
      expect.stringMatching(
        /^run setting models\.supervisor=anthropic:claude-sonnet-4-5: set ANTHROPIC_API_KEY.*\(left out for supervisor, synthesis\)$/,
      ),
    ]);
    const { getRun } = await import("../db/queries/runs.ts");
    const { getEvent } = await import("../db/queries/events.ts");
    const { serverRuntime } = await import("../lib/server/runtime.ts");
    const db = (await serverRuntime()).handle.db;
    const run = await getRun(db, body.id as string);
    // Every role keeps its chain: the supervisor its usable member, synthesis follows it, the rest MODEL's.
    expect(run?.settings.models).toEqual({
      supervisor: "openai-compatible:scripted-model",
      researcher: "openai-compatible:scripted-model",
      compression: "openai-compatible:scripted-model",
      summarization: "openai-compatible:scripted-model",
    });
    const created = await getEvent(db, body.id as string, 1);
    expect(created).toMatchObject({ type: "run.created", payload: { warnings: body.warnings } });
  });

  it("refuses a chain none of whose members is configured, naming each", async () => {
    const before = await runCount();
    const { status, body } = await createRun({
      models: { researcher: "anthropic:claude-sonnet-4-5,google:gemini-2.5-flash" },
    });
    expect(status).toBe(409);
    expect(body.error?.code).toBe("not_configured");
    expect(body.error?.message).toContain("ANTHROPIC_API_KEY");
    expect(body.error?.message).toContain("GOOGLE_GENERATIVE_AI_API_KEY");
    expect(await runCount()).toBe(before);
  });

  it("creates a run whose providers are configured", async () => {
    process.env.TAVILY_API_KEY = "tvly-test";
    try {
      const before = await runCount();
      const { status, body } = await createRun({ searchProviders: ["library", "tavily"] });
      expect(status).toBe(201);
      expect(body.id).toEqual(expect.any(String));
      expect(await runCount()).toBe(before + 1);
    } finally {
      delete process.env.TAVILY_API_KEY;
    }
  });
});
