import { describe, expect, it } from "vitest";
import { ModelConfigError } from "../../ai/errors.ts";
import { contextWindowTokens, DEFAULT_CONTEXT_TOKENS, loadContextWindows } from "./model-context.ts";

describe("contextWindowTokens", () => {
  it.each([
    ["openai:gpt-4.1-mini", 1_047_576],
    ["openai:gpt-4o-2024-08-06", 128_000],
    ["openai:gpt-4", 8_192],
    ["openai:o3-mini", 200_000],
    ["anthropic:claude-sonnet-4-5", 200_000],
    ["google:gemini-2.5-flash", 1_048_576],
    ["google:gemini-1.5-pro", 2_097_152],
    ["openai-compatible:llama3.1:8b", 131_072],
    ["openai-compatible:meta-llama/Llama-3.3-70B-Instruct", 131_072],
    ["openai-compatible:qwen2.5:14b", 32_768],
    ["openai-compatible:my-custom-finetune", DEFAULT_CONTEXT_TOKENS],
  ])("%s → %i tokens", (spec, tokens) => {
    expect(contextWindowTokens(spec)).toBe(tokens);
  });

  it("lets MODEL_CONTEXT_WINDOWS override by full spec or model id, longest match first", () => {
    const table = loadContextWindows({
      MODEL_CONTEXT_WINDOWS:
        '{"llama3.1": 16384, "openai-compatible:llama3.1:8b": 8192, "Custom-Model": 4096}',
    });
    expect(contextWindowTokens("openai-compatible:llama3.1:8b", table)).toBe(8192);
    expect(contextWindowTokens("openai-compatible:llama3.1:70b", table)).toBe(16384);
    expect(contextWindowTokens("openai-compatible:custom-model", table)).toBe(4096);
    expect(contextWindowTokens("anthropic:claude-opus-4", table)).toBe(200_000);
  });

  it("rejects a malformed MODEL_CONTEXT_WINDOWS with an error naming the variable", () => {
    for (const raw of ["{nope", "[8192]", '{"m": "big"}', '{"m": 10}']) {
      let error: unknown;
      try {
        loadContextWindows({ MODEL_CONTEXT_WINDOWS: raw });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ModelConfigError);
      expect((error as ModelConfigError).variable).toBe("MODEL_CONTEXT_WINDOWS");
      expect((error as Error).message).toMatch(/MODEL_CONTEXT_WINDOWS must be a JSON object/);
    }
    expect(loadContextWindows({}).overrides).toEqual({});
  });
});
