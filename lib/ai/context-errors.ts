import { APICallError, RetryError } from "ai";

/**
 * The prompt did not fit the model's context window. Never retried as is: the engine's
 * token-limit recovery shrinks the prompt and calls again. Token counts are filled in when
 * the provider states them, so recovery can cut by the right amount.
 */
export class ContextWindowError extends Error {
  readonly role: string | undefined;
  readonly model: string | undefined;
  readonly statusCode: number | undefined;
  readonly limitTokens: number | undefined;
  readonly requestedTokens: number | undefined;

  constructor(opts: {
    message: string;
    role?: string;
    model?: string;
    statusCode?: number;
    limitTokens?: number;
    requestedTokens?: number;
    cause?: unknown;
  }) {
    super(opts.message, { cause: opts.cause });
    this.name = "ContextWindowError";
    this.role = opts.role;
    this.model = opts.model;
    this.statusCode = opts.statusCode;
    this.limitTokens = opts.limitTokens;
    this.requestedTokens = opts.requestedTokens;
  }
}

export type ContextWindowDetails = {
  message: string;
  statusCode?: number;
  limitTokens?: number;
  requestedTokens?: number;
};

// Wordings of real context-overflow errors. Each is specific to overflow: an ordinary 400
// (bad parameter, unknown model, invalid key) matches none of them.
const OVERFLOW_PATTERNS: RegExp[] = [
  /context_length_exceeded/i, // OpenAI error code (chat and responses APIs)
  /maximum context length is \d/i, // OpenAI, vLLM: "This model's maximum context length is 8192 tokens"
  /exceeds? the context window/i, // OpenAI responses: "Your input exceeds the context window of this model"
  /prompt is too long/i, // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  /exceed context limit/i, // Anthropic: "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000"
  /input token count \(?\d[\d,]*\)? exceeds the maximum number of tokens/i, // Google
  /exceeds the maximum number of tokens allowed/i, // Google
  /exceeds? the available context size/i, // llama.cpp server, Ollama
  /exceed_context_size_error/i, // llama.cpp error type
  /context length of only \d/i, // LM Studio: "the model is loaded with context length of only 4096 tokens"
  /when context the overflows/i, // LM Studio (sic)
  /(?:input|prompt)[\w\s]{0,20} exceeds? (?:the |its )?(?:maximum )?context (?:length|window|size)/i, // Ollama and others
  /too large for model with \d+ maximum context length/i, // Mistral-style servers
  /request_too_large/i, // Anthropic 413: the request body itself is too big; shrinking is the fix
];

// A 429 is a rate limit or quota even when it talks about tokens ("tokens per min",
// "input_token_count" quota metric); only Google's explicit overflow sentence is an exception.
const GOOGLE_OVERFLOW = /exceeds the maximum number of tokens allowed/i;

function num(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const n = Number.parseInt(s.replace(/,/g, ""), 10);
  return Number.isFinite(n) ? n : undefined;
}

function extractCounts(text: string): { limitTokens?: number; requestedTokens?: number } {
  let m = text.match(/(\d[\d,]*) \+ (\d[\d,]*) > (\d[\d,]*)/); // Anthropic input + max_tokens > limit
  if (m) return { requestedTokens: (num(m[1]) ?? 0) + (num(m[2]) ?? 0), limitTokens: num(m[3]) };
  m = text.match(/(\d[\d,]*) tokens > (\d[\d,]*) maximum/); // Anthropic
  if (m) return { requestedTokens: num(m[1]), limitTokens: num(m[2]) };
  m = text.match(
    /input token count \(?(\d[\d,]*)\)? exceeds the maximum number of tokens allowed \(?(\d[\d,]*)/i,
  );
  if (m) return { requestedTokens: num(m[1]), limitTokens: num(m[2]) }; // Google
  const limit =
    text.match(/maximum context length is (\d[\d,]*)/i)?.[1] ??
    text.match(/context length of only (\d[\d,]*)/i)?.[1] ??
    text.match(/"n_ctx"\s*:\s*(\d+)/)?.[1];
  const requested =
    text.match(/(?:resulted in|you requested|requested) (\d[\d,]*) tokens/i)?.[1] ??
    text.match(/"n_prompt_tokens"\s*:\s*(\d+)/)?.[1] ??
    text.match(/keep the first (\d[\d,]*) tokens/i)?.[1];
  return { limitTokens: num(limit), requestedTokens: num(requested) };
}

function safeJson(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value);
  } catch {
    return "";
  }
}

// The error itself, its causes, and the attempts inside an AI SDK RetryError.
function candidates(error: unknown, depth = 0, out: unknown[] = []): unknown[] {
  if (error == null || depth > 5 || out.includes(error)) return out;
  out.push(error);
  if (RetryError.isInstance(error)) for (const e of error.errors) candidates(e, depth + 1, out);
  if (error instanceof Error) candidates(error.cause, depth + 1, out);
  return out;
}

function classifyOne(error: unknown): ContextWindowDetails | undefined {
  if (error instanceof ContextWindowError) {
    return {
      message: error.message,
      statusCode: error.statusCode,
      limitTokens: error.limitTokens,
      requestedTokens: error.requestedTokens,
    };
  }
  if (!(error instanceof Error)) return undefined;
  const statusCode = APICallError.isInstance(error) ? error.statusCode : undefined;
  const text = APICallError.isInstance(error)
    ? [error.message, error.responseBody ?? "", safeJson(error.data)].join("\n")
    : error.message;
  const overflow =
    statusCode === 429 ? GOOGLE_OVERFLOW.test(text) : OVERFLOW_PATTERNS.some((p) => p.test(text));
  if (!overflow) return undefined;
  return { message: error.message, statusCode, ...extractCounts(text) };
}

/** Details when `error` (or anything it wraps) is a context-window overflow, else undefined. */
export function detectContextWindowError(error: unknown): ContextWindowDetails | undefined {
  for (const e of candidates(error)) {
    const found = classifyOne(e);
    if (found) return found;
  }
  return undefined;
}

export function isContextWindowError(error: unknown): boolean {
  return detectContextWindowError(error) !== undefined;
}

/** The typed error for an overflow, or undefined when `error` is something else. */
export function toContextWindowError(
  error: unknown,
  where: { role?: string; model?: string } = {},
): ContextWindowError | undefined {
  if (error instanceof ContextWindowError) return error;
  const d = detectContextWindowError(error);
  if (!d) return undefined;
  const counts =
    d.requestedTokens !== undefined && d.limitTokens !== undefined
      ? ` (${d.requestedTokens} tokens > ${d.limitTokens} limit)`
      : d.limitTokens !== undefined
        ? ` (limit ${d.limitTokens} tokens)`
        : "";
  const who = where.model ? `${where.role ?? "model"} model ${where.model}` : "model";
  return new ContextWindowError({
    message: `prompt exceeds the context window of ${who}${counts}: ${d.message}`,
    role: where.role,
    model: where.model,
    statusCode: d.statusCode,
    limitTokens: d.limitTokens,
    requestedTokens: d.requestedTokens,
    cause: error,
  });
}
