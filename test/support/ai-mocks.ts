// Test-only helpers for scripting models (used by lib/ai tests and the engine tests).
// Never import this from production code: it pulls in `ai/test`.
import { APICallError } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";

export type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
export type GenerateOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];
type StreamResult = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>;

/** A scripted reply: a result, an error to throw, or a function of the call options. */
export type ScriptStep = GenerateResult | Error | ((options: GenerateOptions) => Promise<GenerateResult>);

export function usageOf(input: number, output: number, cacheRead = 0): GenerateResult["usage"] {
  return {
    inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

export function textResult(text: string, tokens: { input?: number; output?: number } = {}): GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: usageOf(tokens.input ?? 10, tokens.output ?? 5),
    warnings: [],
  };
}

/** A model answering each doGenerate with the next step; running out of steps is a test failure. */
export function scriptedModel(steps: ScriptStep[], ids: { provider?: string; modelId?: string } = {}) {
  let i = 0;
  return new MockLanguageModelV4({
    provider: ids.provider ?? "mock",
    modelId: ids.modelId ?? "mock-model",
    doGenerate: async (options) => {
      const step = steps[i++];
      if (step === undefined) throw new Error(`scriptedModel: no reply scripted for call ${i}`);
      if (step instanceof Error) throw step;
      return typeof step === "function" ? step(options) : step;
    },
  });
}

/** A model that streams the given text pieces. */
export function streamingModel(
  pieces: string[],
  tokens: { input: number; output: number } = { input: 7, output: 3 },
) {
  const result: StreamResult = {
    stream: convertArrayToReadableStream([
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t1" },
      ...pieces.map((delta) => ({ type: "text-delta" as const, id: "t1", delta })),
      { type: "text-end", id: "t1" },
      {
        type: "finish",
        finishReason: { unified: "stop", raw: "stop" },
        usage: usageOf(tokens.input, tokens.output),
      },
    ]),
  };
  return new MockLanguageModelV4({ doStream: async () => result });
}

/**
 * An APICallError shaped like the providers build them: message from the body's error message,
 * raw body text, parsed body as `data`, and the SDK's default retryability by status.
 */
export function apiError(opts: {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  url?: string;
}): APICallError {
  const responseBody = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
  const data = typeof opts.body === "string" ? undefined : opts.body;
  const err = (data as { error?: { message?: unknown } } | undefined)?.error;
  const message = typeof err?.message === "string" ? err.message : responseBody;
  return new APICallError({
    message,
    url: opts.url ?? "https://api.example.test/v1/chat/completions",
    requestBodyValues: {},
    statusCode: opts.status,
    responseHeaders: opts.headers ?? {},
    responseBody,
    data,
    isRetryable: opts.status === 408 || opts.status === 409 || opts.status === 429 || opts.status >= 500,
  });
}
