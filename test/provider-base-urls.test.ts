// Base URLs of the three hosted providers (OPENAI_BASE_URL, ANTHROPIC_BASE_URL,
// GOOGLE_GENERATIVE_AI_BASE_URL), from the environment or the admin settings, passed to each
// provider package explicitly: calls land on the scripted server in each provider's own wire
// format. A changed base URL needs the key typed again and an admin session, and the settings
// "Test" never sends a saved key to a newly typed address.
import { generateText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BASE_URL, missingProviderConfig, providerBaseUrl } from "../lib/ai/providers.ts";
import { createModelRegistry } from "../lib/ai/registry.ts";
import { effectiveConfig } from "../lib/jobs/effective-config.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { call, type Person, signUp, useFreshAppDatabase } from "./support/app-session.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/llm-server.ts";

type Handler = Parameters<typeof call>[0];
const KEYS = { openai: "sk-test-openai-0001", anthropic: "sk-ant-test-0002", google: "g-test-key-0003" };
const MODELS = { openai: "gpt-5.1", anthropic: "claude-sonnet-4-5", google: "gemini-2.5-flash" };
const FORMATS = { openai: "openai-responses", anthropic: "anthropic", google: "google" };
const BASE_VARS = {
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
  google: "GOOGLE_GENERATIVE_AI_BASE_URL",
};
const KEY_VARS = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
};
type Hosted = keyof typeof KEYS;
const hosted = Object.keys(KEYS) as Hosted[];

let llm: ScriptedLlm;
let other: ScriptedLlm;

async function ask(env: Record<string, string | undefined>, provider: Hosted) {
  const registry = createModelRegistry({ env: { ...env, MODEL: `${provider}:${MODELS[provider]}` } });
  return (await generateText({ model: registry.model("supervisor"), prompt: "Say OK.", maxRetries: 0 })).text;
}

beforeAll(async () => {
  llm = await startScriptedLlm({ keys: KEYS });
  other = await startScriptedLlm({ keys: { openai: "sk-typed-key-9999" } });
  for (const server of [llm, other])
    server.setScript([{ replies: [{ kind: "text", text: "OK" }], repeat: true }]);
});
afterAll(async () => {
  await llm.close();
  await other.close();
});

describe("base URLs from the environment", () => {
  it.each(hosted)("%s: the package calls the configured address in its own wire format", async (provider) => {
    llm.requests.length = 0;
    const env = { [KEY_VARS[provider]]: KEYS[provider], [BASE_VARS[provider]]: `${llm.baseUrls[provider]}/` };
    expect(await ask(env, provider)).toBe("OK");
    expect(llm.requests.map((r) => [r.format, r.model, r.violations])).toEqual([
      [FORMATS[provider], MODELS[provider], []],
    ]);
  });

  it("unset means the provider's own API, whatever the SDKs would read from process.env", () => {
    for (const provider of hosted) {
      expect(providerBaseUrl(provider, {})).toBe(DEFAULT_BASE_URL[provider]);
      expect(providerBaseUrl(provider, { [BASE_VARS[provider]]: " " })).toBe(DEFAULT_BASE_URL[provider]);
    }
    expect(providerBaseUrl("openai-compatible", {})).toBeUndefined();
  });

  it("a base URL that is not http(s) is a configuration problem naming the variable", () => {
    const problem = missingProviderConfig("anthropic", {
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: "ftp://x",
    });
    expect(problem).toMatch(/^ANTHROPIC_BASE_URL="ftp:\/\/x" is not an http\(s\) URL/);
    expect(missingProviderConfig("google", { GOOGLE_GENERATIVE_AI_API_KEY: "k" })).toBeUndefined();
  });
});

describe("base URLs in the admin settings", () => {
  let stopApp: () => Promise<void>;
  let admin: Person;
  let settings: { GET: Handler; PUT: Handler };
  let test: Handler;
  let mintToken: Handler;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase("pglite");
    admin = await signUp("admin@example.org");
    settings = (await import("../app/api/admin/settings/route.ts")) as unknown as typeof settings;
    test = (await import("../app/api/admin/settings/test/route.ts")).POST as Handler;
    mintToken = (await import("../app/api/tokens/route.ts")).POST as Handler;
  }, 240_000);
  afterAll(() => stopApp());

  const put = (body: unknown, headers?: Record<string, string>) =>
    call(settings.PUT, "PUT", "/api/admin/settings", headers ? { body, headers } : { who: admin, body });
  const effective = async () => (await effectiveConfig((await getRuntime()).handle.db, process.env)).env;
  const providerSet = (provider: Hosted, baseUrl: string | undefined, key?: string) => ({
    providers: { [provider]: { useEnvironment: false, baseUrl, ...(key ? { key: { value: key } } : {}) } },
  });

  it("set here, each provider's address and key reach its package", async () => {
    for (const provider of hosted) {
      const res = await put(providerSet(provider, llm.baseUrls[provider], KEYS[provider]));
      expect(res.status).toBe(200);
      expect((await res.json()).changes).toContain(
        `${{ openai: "OpenAI", anthropic: "Anthropic", google: "Google" }[provider]} base URL: not set → ${llm.baseUrls[provider]}`,
      );
    }
    const env = await effective();
    llm.requests.length = 0;
    for (const provider of hosted) expect(await ask(env, provider)).toBe("OK");
    expect(llm.requests.map((r) => [r.format, r.violations])).toEqual(hosted.map((p) => [FORMATS[p], []]));
    const view = await (await call(settings.GET, "GET", "/api/admin/settings", { who: admin })).json();
    expect(view.providers.google).toMatchObject({
      baseUrl: llm.baseUrls.google,
      defaultBaseUrl: DEFAULT_BASE_URL.google,
    });
  });

  it("set here without a base URL, the environment's address is not used", async () => {
    process.env.ANTHROPIC_BASE_URL = other.url;
    try {
      const res = await put(providerSet("anthropic", llm.baseUrls.anthropic));
      expect(res.status).toBe(200);
      const cleared = await put({ providers: { anthropic: { useEnvironment: false } } });
      expect(cleared.status).toBe(422); // a new address (the official API) needs the key again
      expect(
        (await put({ providers: { anthropic: { useEnvironment: false, key: { value: KEYS.anthropic } } } }))
          .status,
      ).toBe(200);
      expect(providerBaseUrl("anthropic", await effective())).toBe(DEFAULT_BASE_URL.anthropic);
    } finally {
      delete process.env.ANTHROPIC_BASE_URL;
    }
  });

  it("a changed base URL needs the key typed again, from a signed-in admin", async () => {
    const before = await (await call(settings.GET, "GET", "/api/admin/settings", { who: admin })).json();
    const refused = await put(providerSet("openai", other.baseUrls.openai));
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.message).toMatch(
      /providers\.openai: type the API key again to change the base URL/,
    );

    const minted = await call(mintToken, "POST", "/api/tokens", { who: admin, body: { name: "cli" } });
    const { token } = await minted.json();
    const byToken = await put(providerSet("openai", other.baseUrls.openai, "sk-typed-key-9999"), {
      authorization: `Bearer ${token}`,
    });
    expect(byToken.status).toBe(403);
    expect((await byToken.json()).error.message).toMatch(
      /needs a signed-in (admin )?session; an API token cannot/,
    );
    const after = await (await call(settings.GET, "GET", "/api/admin/settings", { who: admin })).json();
    expect(after.providers.openai).toEqual(before.providers.openai);

    // Nor can a token park a new address while the provider is on "use environment".
    const parked = await put(
      { providers: { openai: { useEnvironment: true, baseUrl: other.baseUrls.openai } } },
      { authorization: `Bearer ${token}` },
    );
    expect(parked.status).toBe(403);

    // Settings are changed from a signed-in session only, even with no change of address.
    const sameByToken = await put(providerSet("openai", `${llm.baseUrls.openai}/`), {
      authorization: `Bearer ${token}`,
    });
    expect(sameByToken.status).toBe(403);
    // The same address again is no change: the session saves it without the key, and the saved key stays.
    const same = await put(providerSet("openai", `${llm.baseUrls.openai}/`));
    expect(same.status).toBe(200);
    expect((await same.json()).settings.providers.openai.key).toMatchObject({ set: true });
  });

  it("the Test never sends a saved key to a newly typed base URL", async () => {
    const testWith = async (body: Record<string, unknown>) =>
      (await (await call(test, "POST", "/api/admin/settings/test", { who: admin, body })).json()) as {
        ok: boolean;
        message: string;
      };
    other.requests.length = 0;
    const untyped = await testWith({ provider: "openai", model: "gpt-5.1", baseUrl: other.baseUrls.openai });
    expect(untyped).toEqual({
      ok: false,
      message:
        "Type the API key to test a new base URL: a saved key is never sent to an address it was not saved for.",
    });
    expect(other.requests).toHaveLength(0);

    const typed = await testWith({
      provider: "openai",
      model: "gpt-5.1",
      baseUrl: other.baseUrls.openai,
      key: "sk-typed-key-9999",
    });
    expect(typed.ok).toBe(true);
    // The plain call, then a structured output and a tool call with the run's schemas, all within OpenAI's rules.
    expect(other.requests.map((r) => [r.format, r.status, r.violations])).toEqual([
      ["openai-responses", 200, []],
      ["openai-responses", 200, []],
      ["openai-responses", 200, []],
    ]);

    // The saved address is trusted with the saved key.
    llm.requests.length = 0;
    const saved = await testWith({ provider: "openai", model: "gpt-5.1", baseUrl: llm.baseUrls.openai });
    expect(saved.ok).toBe(true);
    expect(llm.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
