import { describe, expect, it } from "vitest";
import { ModelConfigError } from "./errors.ts";
import { chainText, parseModelChain, parseModelSpec } from "./spec.ts";

const parse = (value: string, variable = "MODEL_RESEARCHER") => parseModelSpec(value, { variable });

function errorOf(fn: () => unknown): ModelConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ModelConfigError);
    return e as ModelConfigError;
  }
  throw new Error("expected a ModelConfigError");
}

describe("parseModelSpec", () => {
  it("parses each provider form", () => {
    expect(parse("openai:gpt-4.1")).toEqual({ provider: "openai", modelId: "gpt-4.1", id: "openai:gpt-4.1" });
    expect(parse("anthropic:claude-sonnet-4-5").provider).toBe("anthropic");
    expect(parse("google:gemini-2.5-flash").modelId).toBe("gemini-2.5-flash");
    expect(parse("openai-compatible:llama3.1").provider).toBe("openai-compatible");
  });

  it("splits at the first colon only, so Ollama tags survive", () => {
    expect(parse("openai-compatible:llama3.1:8b-instruct-q4_K_M")).toMatchObject({
      provider: "openai-compatible",
      modelId: "llama3.1:8b-instruct-q4_K_M",
    });
  });

  it("trims whitespace and lower-cases the provider", () => {
    expect(parse("  OpenAI:gpt-4o  ").id).toBe("openai:gpt-4o");
  });

  it("rejects a value without provider, naming the variable and the accepted forms", () => {
    const e = errorOf(() => parse("gpt-4o"));
    expect(e.message).toContain('MODEL_RESEARCHER="gpt-4o"');
    expect(e.message).toContain("provider:model-id");
    expect(e.message).toContain(
      "openai:<model-id>, anthropic:<model-id>, google:<model-id>, openai-compatible:<model-id>",
    );
    expect(e.variable).toBe("MODEL_RESEARCHER");
    expect(e.code).toBe("not_configured");
    expect(e.status).toBe(409);
  });

  it("rejects an unknown provider and suggests the right one", () => {
    const e = errorOf(() => parse("ollama:llama3.1", "MODEL"));
    expect(e.message).toContain('unknown provider "ollama"');
    expect(e.message).toContain("Did you mean openai-compatible:llama3.1?");
    expect(e.message).toContain("OPENAI_COMPATIBLE_BASE_URL");
    expect(e.variable).toBe("MODEL");
    expect(errorOf(() => parse("gemini:gemini-2.5-pro")).message).toContain(
      "Did you mean google:gemini-2.5-pro?",
    );
    expect(errorOf(() => parse("acme:x")).message).not.toContain("Did you mean");
  });

  it("rejects empty and whitespace-containing model ids", () => {
    expect(errorOf(() => parse("openai:")).message).toContain("no model id");
    expect(errorOf(() => parse("openai:gpt 4o")).message).toContain("whitespace");
    expect(errorOf(() => parse(":gpt-4o")).message).toContain("not a model spec");
    expect(errorOf(() => parse("   ")).message).toContain("MODEL_RESEARCHER is empty");
  });

  it("accepts extra provider names when they are registered", () => {
    expect(parseModelSpec("test:a", { variable: "MODEL", providers: ["test"] }).provider).toBe("test");
  });
});

describe("parseModelChain", () => {
  const chain = (value: string) => parseModelChain(value, { variable: "MODEL_SUPERVISOR" });

  it("reads one model as a chain of one, and a comma list in order", () => {
    expect(chain("openai:gpt-5.1").map((s) => s.id)).toEqual(["openai:gpt-5.1"]);
    expect(
      chainText(chain("openai:gpt-5.1, anthropic:claude-sonnet-4-5 ,openai-compatible:llama3.1:8b")),
    ).toBe("openai:gpt-5.1,anthropic:claude-sonnet-4-5,openai-compatible:llama3.1:8b");
  });

  it("drops blank members and repeats", () => {
    expect(chainText(chain("openai:a,,openai:a, google:b,"))).toBe("openai:a,google:b");
  });

  it("names the variable and the bad member", () => {
    expect(errorOf(() => chain("openai:a,ollama:llama3")).message).toMatch(
      /^MODEL_SUPERVISOR="ollama:llama3" names unknown provider "ollama"\. Did you mean openai-compatible:llama3\?/,
    );
    expect(errorOf(() => chain(" , ")).message).toMatch(/^MODEL_SUPERVISOR is empty/);
  });
});
