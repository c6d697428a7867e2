import { describe, expect, it } from "vitest";
import { scriptedModel } from "../../test/support/ai-mocks.ts";
import { ModelConfigError } from "./errors.ts";
import { createModelRegistry } from "./registry.ts";
import { ROLES } from "./roles.ts";

// A custom provider whose models just remember their id, so routing is observable.
const testFactories = { test: (id: string) => scriptedModel([], { provider: "test", modelId: id }) };

function registry(env: Record<string, string>, overrides?: Record<string, string>) {
  return createModelRegistry({ env, overrides, providerFactories: testFactories });
}

describe("role routing and fallback chain", () => {
  it("sends every role to MODEL when only MODEL is set", () => {
    const r = registry({ MODEL: "test:base" });
    for (const role of ROLES) {
      expect(r.spec(role).id).toBe("test:base");
      expect(r.resolve(role)).toMatchObject({ ok: true, source: "MODEL" });
    }
  });

  it("follows the documented chain: summarization→compression, synthesis→supervisor", () => {
    const r = registry({ MODEL: "test:base", MODEL_COMPRESSION: "test:small", MODEL_SUPERVISOR: "test:big" });
    expect(r.spec("summarization").id).toBe("test:small");
    expect(r.resolve("summarization")).toMatchObject({ source: "MODEL_COMPRESSION" });
    expect(r.spec("synthesis").id).toBe("test:big");
    expect(r.resolve("synthesis")).toMatchObject({ source: "MODEL_SUPERVISOR" });
    expect(r.spec("researcher").id).toBe("test:base");
    expect(r.spec("compression").id).toBe("test:small");
  });

  it("prefers a role's own variable over the chain", () => {
    const r = registry({
      MODEL: "test:base",
      MODEL_COMPRESSION: "test:small",
      MODEL_SUMMARIZATION: "test:tiny",
    });
    expect(r.spec("summarization").id).toBe("test:tiny");
    expect(r.spec("compression").id).toBe("test:small");
  });

  it("returns the model built by the provider for the resolved id, cached per spec", () => {
    const r = registry({ MODEL: "test:base", MODEL_RESEARCHER: "test:fast" });
    const m = r.model("researcher");
    expect(m).toMatchObject({ provider: "test", modelId: "fast" });
    expect(r.model("researcher")).toBe(m);
    expect(r.model("supervisor")).toMatchObject({ modelId: "base" });
  });

  it("applies per-run overrides at each chain link, without touching the base registry", () => {
    const base = registry({ MODEL: "test:base" });
    const run = base.withOverrides({ supervisor: "test:run-sup", researcher: "test:run-res" });
    expect(run.spec("supervisor").id).toBe("test:run-sup");
    expect(run.spec("synthesis").id).toBe("test:run-sup"); // synthesis falls back to the supervisor override
    expect(run.resolve("researcher")).toMatchObject({ source: "run setting models.researcher" });
    expect(run.spec("compression").id).toBe("test:base");
    expect(base.spec("supervisor").id).toBe("test:base");
    expect(run.limiter("test")).toBe(base.limiter("test")); // one concurrency limit for the process
  });

  it("reports a malformed role variable instead of silently falling back to MODEL", () => {
    const r = registry({ MODEL: "test:base", MODEL_RESEARCHER: "gpt-4o" });
    expect(() => r.model("researcher")).toThrow(ModelConfigError);
    expect(() => r.model("researcher")).toThrow(/MODEL_RESEARCHER="gpt-4o" is not a model spec/);
    expect(r.spec("supervisor").id).toBe("test:base");
  });

  it("throws a not_configured error naming the variables when nothing is set", () => {
    const r = registry({});
    let err: unknown;
    try {
      r.model("summarization");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelConfigError);
    const e = err as ModelConfigError;
    expect(e.status).toBe(409);
    expect(e.message).toContain("MODEL_SUMMARIZATION or MODEL_COMPRESSION or MODEL");
    expect(e.message).toContain("OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1");
  });
});

describe("chains of models", () => {
  it("reads a comma list as a chain, first model first, and gives it to the roles that fall back to it", () => {
    const r = registry({ MODEL: "test:base", MODEL_SUPERVISOR: " test:big , test:backup,test:big " });
    expect(r.chain("supervisor").map((s) => s.id)).toEqual(["test:big", "test:backup"]);
    expect(r.spec("supervisor").id).toBe("test:big");
    // synthesis has no value of its own: it takes the supervisor's chain, whole
    expect(r.chain("synthesis").map((s) => s.id)).toEqual(["test:big", "test:backup"]);
    expect(r.resolve("synthesis")).toMatchObject({ ok: true, source: "MODEL_SUPERVISOR", skipped: [] });
    expect(r.chain("researcher").map((s) => s.id)).toEqual(["test:base"]);
    expect(r.modelFor(r.chain("supervisor")[1])).toMatchObject({ modelId: "backup" });
  });

  it("takes a run's chain at the link it is set, before the environment", () => {
    const r = registry({ MODEL: "test:base", MODEL_COMPRESSION: "test:env-small" }).withOverrides({
      compression: "test:run-a,test:run-b",
    });
    expect(r.chain("summarization").map((s) => s.id)).toEqual(["test:run-a", "test:run-b"]);
    expect(r.resolve("summarization")).toMatchObject({ source: "run setting models.compression" });
  });

  it("skips a member whose provider is not configured, with a warning naming what to set", () => {
    const r = createModelRegistry({
      env: { MODEL: "anthropic:claude-sonnet-4-5,test:local", OPENAI_API_KEY: "sk-x" },
      providerFactories: testFactories,
    });
    const res = r.resolve("researcher");
    expect(res).toMatchObject({ ok: true, skipped: [{ model: "anthropic:claude-sonnet-4-5" }] });
    expect(res.skipped?.[0].problem).toBe(
      "MODEL=anthropic:claude-sonnet-4-5: set ANTHROPIC_API_KEY to use anthropic: models",
    );
    expect(r.chain("researcher").map((s) => s.id)).toEqual(["test:local"]);
    expect(r.status().roles[0]).toMatchObject({
      configured: true,
      models: ["test:local"],
      skipped: [res.skipped?.[0].problem],
    });
  });

  it("refuses a chain with no usable member (409), naming every member's problem", () => {
    const r = createModelRegistry({ env: { MODEL: "anthropic:a,google:b" } });
    expect(() => r.chain("supervisor")).toThrow(ModelConfigError);
    expect(() => r.spec("supervisor")).toThrow(
      /MODEL names no usable model: .*ANTHROPIC_API_KEY.*GOOGLE_GENERATIVE_AI_API_KEY/,
    );
    expect(r.status()).toMatchObject({ configured: false });
  });

  it("reports a malformed member by its variable, without falling back", () => {
    const r = registry({ MODEL: "test:base", MODEL_RESEARCHER: "test:a,gpt-4o" });
    expect(() => r.chain("researcher")).toThrow(/MODEL_RESEARCHER="gpt-4o" is not a model spec/);
  });

  it("reads the breaker's settings from the environment", () => {
    const r = createModelRegistry({ env: { MODEL_BREAKER_FAILURES: "2", MODEL_BREAKER_COOLDOWN_MS: "500" } });
    expect(r.settings.breaker).toEqual({ failureThreshold: 2, cooldownMs: 500 });
    expect(() => createModelRegistry({ env: { MODEL_BREAKER_FAILURES: "0" } })).toThrow(
      /MODEL_BREAKER_FAILURES/,
    );
    expect(r.breaker("openai")).toBe(r.withOverrides({}).breaker("openai")); // one per provider, per process
  });
});

describe("built-in providers", () => {
  it("builds an openai-compatible chat model from the base URL without network", () => {
    const r = createModelRegistry({
      env: {
        MODEL: "openai-compatible:llama3.1:8b",
        OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
      },
    });
    const m = r.model("researcher");
    expect(m).toMatchObject({ modelId: "llama3.1:8b", provider: "openai-compatible.chat" });
  });

  it("builds openai, anthropic and google models when their keys are set", () => {
    const r = createModelRegistry({
      env: {
        MODEL: "openai:gpt-4.1",
        MODEL_RESEARCHER: "anthropic:claude-sonnet-4-5",
        MODEL_COMPRESSION: "google:gemini-2.5-flash",
        OPENAI_API_KEY: "sk-test",
        ANTHROPIC_API_KEY: "sk-ant-test",
        GOOGLE_GENERATIVE_AI_API_KEY: "g-test",
      },
    });
    expect(r.model("supervisor")).toMatchObject({ modelId: "gpt-4.1" });
    expect(String((r.model("supervisor") as { provider: string }).provider)).toMatch(/^openai/);
    expect(r.model("researcher")).toMatchObject({ modelId: "claude-sonnet-4-5" });
    expect(r.model("compression")).toMatchObject({ modelId: "gemini-2.5-flash" });
  });

  it("names the missing key or base URL", () => {
    const r = createModelRegistry({
      env: {
        MODEL: "openai:gpt-4.1",
        MODEL_RESEARCHER: "openai-compatible:qwen3",
        MODEL_COMPRESSION: "google:g",
      },
    });
    expect(() => r.model("supervisor")).toThrow(/MODEL=openai:gpt-4.1: set OPENAI_API_KEY/);
    expect(() => r.model("researcher")).toThrow(
      /MODEL_RESEARCHER=openai-compatible:qwen3: set OPENAI_COMPATIBLE_BASE_URL/,
    );
    expect(() => r.model("compression")).toThrow(/GOOGLE_GENERATIVE_AI_API_KEY/);
    const bad = createModelRegistry({
      env: { MODEL: "openai-compatible:x", OPENAI_COMPATIBLE_BASE_URL: "localhost:11434" },
    });
    expect(() => bad.model("supervisor")).toThrow(/is not an http\(s\) URL/);
  });

  it("rejects invalid numeric settings by name", () => {
    expect(() => createModelRegistry({ env: { MODEL_TIMEOUT_MS: "soon" } })).toThrow(
      /MODEL_TIMEOUT_MS="soon"/,
    );
    expect(() => createModelRegistry({ env: { MODEL_MAX_CONCURRENCY: "0" } })).toThrow(
      /MODEL_MAX_CONCURRENCY/,
    );
    const r = createModelRegistry({ env: { MODEL_MAX_RETRIES: "2", MODEL_TIMEOUT_MS: "1000" } });
    expect(r.settings.retry.maxAttempts).toBe(3);
    expect(r.settings.timeoutMs).toBe(1000);
  });
});
