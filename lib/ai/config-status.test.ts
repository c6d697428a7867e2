import { describe, expect, it } from "vitest";
import { assertModelsConfigured, modelConfigStatus } from "./config-status.ts";
import { ModelConfigError } from "./errors.ts";
import { createModelRegistry } from "./registry.ts";

describe("model configuration status", () => {
  it("lists every role as unconfigured with the Ollama example when nothing is set", () => {
    const s = modelConfigStatus({});
    expect(s.configured).toBe(false);
    expect(s.unconfigured).toEqual(["supervisor", "researcher", "compression", "synthesis", "summarization"]);
    expect(s.help?.example).toEqual({
      MODEL: "openai-compatible:llama3.1",
      OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
    });
    expect(s.help?.exampleText).toBe(
      "MODEL=openai-compatible:llama3.1\nOPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1",
    );
    expect(s.roles.find((r) => r.role === "synthesis")?.chain).toEqual([
      "MODEL_SYNTHESIS",
      "MODEL_SUPERVISOR",
      "MODEL",
    ]);
  });

  it("is configured with MODEL and the provider's base URL", () => {
    const s = modelConfigStatus({
      MODEL: "openai-compatible:llama3.1",
      OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
    });
    expect(s.configured).toBe(true);
    expect(s.unconfigured).toEqual([]);
    expect(s.help).toBeUndefined();
    expect(s.roles.every((r) => r.model === "openai-compatible:llama3.1" && r.source === "MODEL")).toBe(true);
    expect(() => assertModelsConfigured(s)).not.toThrow();
  });

  it("lists only the roles whose own variable is broken, once per problem", () => {
    const s = modelConfigStatus({
      MODEL: "openai-compatible:llama3.1",
      OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
      MODEL_SUPERVISOR: "anthropic:claude-sonnet-4-5",
    });
    // synthesis falls back to the supervisor's model, so it shares the missing key
    expect(s.unconfigured).toEqual(["supervisor", "synthesis"]);
    expect(s.problems).toEqual([
      "MODEL_SUPERVISOR=anthropic:claude-sonnet-4-5: set ANTHROPIC_API_KEY to use anthropic: models",
    ]);
    expect(s.roles.find((r) => r.role === "researcher")?.configured).toBe(true);
  });

  it("assertModelsConfigured gives a 409 that says what to set", () => {
    const s = modelConfigStatus({});
    let err: unknown;
    try {
      assertModelsConfigured(s);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelConfigError);
    const e = err as ModelConfigError;
    expect(e.status).toBe(409);
    expect(e.toJSON().error.code).toBe("not_configured");
    expect(e.message).toContain(
      "MODEL=openai-compatible:llama3.1 OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1",
    );
    // Nothing set: one sentence, not the same advice once per role.
    expect(e.message.startsWith("No model is configured: set MODEL")).toBe(true);
    expect(e.message.match(/MODEL=openai-compatible/g)).toHaveLength(1);
  });

  it("names the broken roles and their problem when only some are unusable", () => {
    const s = modelConfigStatus({
      MODEL: "openai-compatible:llama3.1",
      OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
      MODEL_SUPERVISOR: "anthropic:claude-sonnet-4-5",
    });
    expect(() => assertModelsConfigured(s)).toThrow(
      /Models are not configured \(supervisor, synthesis\): MODEL_SUPERVISOR=anthropic:claude-sonnet-4-5: set ANTHROPIC_API_KEY/,
    );
  });

  it("the registry reports the same status, including per-run overrides", () => {
    const r = createModelRegistry({ env: {}, providerFactories: { test: () => ({}) as never } });
    expect(r.status().unconfigured).toHaveLength(5);
    const run = r.withOverrides({ supervisor: "test:a", researcher: "test:a", compression: "test:a" });
    expect(run.status().unconfigured).toEqual([]);
  });
});
