import { type APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { apiError } from "../../test/support/ai-mocks.ts";
import { ContextWindowError, detectContextWindowError, toContextWindowError } from "./context-errors.ts";
import { isRetryableError } from "./retry.ts";

// Error bodies as the providers send them.
const overflows: Array<{ name: string; error: APICallError; limit?: number; requested?: number }> = [
  {
    name: "OpenAI chat completions",
    error: apiError({
      status: 400,
      body: {
        error: {
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      },
    }),
    limit: 128000,
    requested: 130412,
  },
  {
    name: "OpenAI responses API",
    error: apiError({
      status: 400,
      body: {
        error: {
          message:
            "Your input exceeds the context window of this model. Please adjust your input and try again.",
          type: "invalid_request_error",
          param: "input",
          code: "context_length_exceeded",
        },
      },
    }),
  },
  {
    name: "Anthropic prompt too long",
    error: apiError({
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "prompt is too long: 210000 tokens > 200000 maximum",
        },
      },
    }),
    limit: 200000,
    requested: 210000,
  },
  {
    name: "Anthropic input + max_tokens over the limit",
    error: apiError({
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message:
            "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again",
        },
      },
    }),
    limit: 200000,
    requested: 203192,
  },
  {
    name: "Google INVALID_ARGUMENT token count",
    error: apiError({
      status: 400,
      body: {
        error: {
          code: 400,
          message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
          status: "INVALID_ARGUMENT",
        },
      },
    }),
    limit: 1048576,
    requested: 1200000,
  },
  {
    name: "Google RESOURCE_EXHAUSTED with token wording",
    error: apiError({
      status: 429,
      body: {
        error: {
          code: 429,
          message: "The input token count (2097152) exceeds the maximum number of tokens allowed (1048576).",
          status: "RESOURCE_EXHAUSTED",
        },
      },
    }),
    limit: 1048576,
    requested: 2097152,
  },
  {
    name: "vLLM (legacy top-level body)",
    error: apiError({
      status: 400,
      body: {
        object: "error",
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4096 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
        type: "BadRequestError",
        param: null,
        code: 400,
      },
    }),
    limit: 4096,
    requested: 5120,
  },
  {
    name: "vLLM (OpenAI-style body)",
    error: apiError({
      status: 400,
      body: {
        error: {
          message:
            "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens in the messages, Please reduce the length of the messages.",
          type: "BadRequestError",
          param: null,
          code: 400,
        },
      },
    }),
    limit: 32768,
    requested: 40000,
  },
  {
    name: "llama.cpp server",
    error: apiError({
      status: 400,
      body: {
        error: {
          code: 400,
          message: "the request exceeds the available context size, try increasing it",
          type: "exceed_context_size_error",
          n_prompt_tokens: 9001,
          n_ctx: 8192,
        },
      },
    }),
    limit: 8192,
    requested: 9001,
  },
  {
    name: "Ollama",
    error: apiError({
      status: 400,
      body: {
        error: {
          message: "the request exceeds the available context size, try increasing it",
          type: "invalid_request_error",
          param: null,
          code: null,
        },
      },
    }),
  },
  {
    name: "LM Studio",
    error: apiError({
      status: 400,
      body: {
        error:
          "Trying to keep the first 5234 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
      },
    }),
    limit: 4096,
    requested: 5234,
  },
];

const ordinary: Array<{ name: string; error: unknown }> = [
  {
    name: "OpenAI unknown model",
    error: apiError({
      status: 404,
      body: {
        error: {
          message: "The model `gpt-9` does not exist or you do not have access to it.",
          type: "invalid_request_error",
          param: null,
          code: "model_not_found",
        },
      },
    }),
  },
  {
    name: "OpenAI bad parameter",
    error: apiError({
      status: 400,
      body: {
        error: {
          message: "Invalid value for 'temperature': expected a number between 0 and 2.",
          type: "invalid_request_error",
          param: "temperature",
          code: "invalid_value",
        },
      },
    }),
  },
  {
    name: "OpenAI max_tokens too large (a parameter error; shrinking the prompt does not help)",
    error: apiError({
      status: 400,
      body: {
        error: {
          message:
            "max_tokens is too large: 50000. This model supports at most 16384 completion tokens, whereas you provided 50000.",
          type: "invalid_request_error",
          param: "max_tokens",
          code: "invalid_value",
        },
      },
    }),
  },
  {
    name: "Anthropic max_tokens above the model's output limit",
    error: apiError({
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message:
            "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5",
        },
      },
    }),
  },
  {
    name: "Google invalid API key",
    error: apiError({
      status: 400,
      body: {
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
        },
      },
    }),
  },
  {
    name: "Google quota on input tokens (a rate limit)",
    error: apiError({
      status: 429,
      body: {
        error: {
          code: 429,
          message:
            "You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 250000",
          status: "RESOURCE_EXHAUSTED",
        },
      },
    }),
  },
  {
    name: "OpenAI tokens-per-minute rate limit",
    error: apiError({
      status: 429,
      body: {
        error: {
          message:
            "Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200.",
          type: "tokens",
          param: null,
          code: "rate_limit_exceeded",
        },
      },
    }),
  },
  { name: "a network failure", error: new TypeError("fetch failed") },
  { name: "a plain error", error: new Error("something broke") },
];

describe("context-window classification", () => {
  for (const c of overflows) {
    it(`classifies ${c.name}`, () => {
      const d = detectContextWindowError(c.error);
      expect(d).toBeDefined();
      expect(d?.statusCode).toBe(c.error.statusCode);
      if (c.limit !== undefined) expect(d?.limitTokens).toBe(c.limit);
      if (c.requested !== undefined) expect(d?.requestedTokens).toBe(c.requested);
    });
  }

  for (const c of ordinary) {
    it(`does not classify ${c.name}`, () => {
      expect(detectContextWindowError(c.error)).toBeUndefined();
      expect(toContextWindowError(c.error)).toBeUndefined();
    });
  }

  it("the rate limits above stay retriable, the client errors do not", () => {
    const byName = Object.fromEntries(ordinary.map((c) => [c.name, c.error]));
    expect(isRetryableError(byName["Google quota on input tokens (a rate limit)"])).toBe(true);
    expect(isRetryableError(byName["OpenAI tokens-per-minute rate limit"])).toBe(true);
    expect(isRetryableError(byName["OpenAI bad parameter"])).toBe(false);
    expect(isRetryableError(byName["OpenAI unknown model"])).toBe(false);
  });

  it("finds the overflow inside an AI SDK RetryError and in an error's cause", () => {
    const inner = overflows[2].error;
    const wrapped = new RetryError({
      message: "Failed after 3 attempts",
      reason: "maxRetriesExceeded",
      errors: [inner],
    });
    expect(detectContextWindowError(wrapped)?.limitTokens).toBe(200000);
    expect(detectContextWindowError(new Error("outer", { cause: inner }))?.requestedTokens).toBe(210000);
  });

  it("builds a typed error that keeps the role, model, counts and the cause", () => {
    const cause = overflows[0].error;
    const e = toContextWindowError(cause, { role: "compression", model: "openai:gpt-4o" });
    expect(e).toBeInstanceOf(ContextWindowError);
    expect(e).toMatchObject({
      role: "compression",
      model: "openai:gpt-4o",
      limitTokens: 128000,
      requestedTokens: 130412,
    });
    expect(e?.message).toContain("compression model openai:gpt-4o");
    expect(e?.message).toContain("130412 tokens > 128000 limit");
    expect(e?.cause).toBe(cause);
    expect(toContextWindowError(e)).toBe(e);
  });
});
