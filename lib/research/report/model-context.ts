/**
 * Context-window sizes of known models, used to size prompts after a context-window error.
 * The table is a starting point: a local server (Ollama, vLLM, LM Studio) often runs a model with
 * a smaller context than it supports, so `MODEL_CONTEXT_WINDOWS` (JSON) overrides any entry, e.g.
 * `{"openai-compatible:llama3.1:8b": 8192, "qwen2.5": 32768}` — keys are a full `provider:model`
 * spec or a model id, matched exactly or as the longest prefix.
 */
import { ModelConfigError } from "../../ai/errors.ts";

/** Tokens assumed for a model nobody told us about: small enough to be safe on local servers. */
export const DEFAULT_CONTEXT_TOKENS = 32_768;

/** The usual rough rate for Latin-script text; recovery shrinks further when it is off. */
export const CHARS_PER_TOKEN = 4;

export interface ContextWindowTable {
  /** Configured sizes by spec or model id (lower-cased). */
  overrides: Record<string, number>;
  defaultTokens: number;
}

// First match wins: specific patterns before the family catch-alls. Matched against the model id
// without provider and organisation prefix (`meta-llama/Llama-3.1-8B` → `llama-3.1-8b`).
const KNOWN_MODELS: readonly [RegExp, number][] = [
  // OpenAI
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4o/, 128_000],
  [/^gpt-4-turbo/, 128_000],
  [/^gpt-4-32k/, 32_768],
  [/^gpt-4(?:-\d|$)/, 8_192],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^gpt-oss/, 131_072],
  [/^o1-mini/, 128_000],
  [/^o[134](?:-|$)/, 200_000],
  // Anthropic
  [/^claude/, 200_000],
  // Google
  [/^gemini-1\.5-pro/, 2_097_152],
  [/^gemini/, 1_048_576],
  [/^gemma-?3/, 131_072],
  [/^gemma/, 8_192],
  // Open models as commonly served (the server's own setting may be lower: configure it)
  [/^llama-?3\.[1-3]/, 131_072],
  [/^llama-?4/, 131_072],
  [/^llama-?3/, 8_192],
  [/^qwen-?3/, 32_768],
  [/^qwen-?2\.5/, 32_768],
  [/^mistral-(?:large|medium|small-3)/, 131_072],
  [/^(?:mistral|mixtral)/, 32_768],
  [/^deepseek/, 65_536],
  [/^phi-?4/, 16_384],
];

/** The model part of a `provider:model` spec, without organisation prefix: what the table matches. */
function bareModelId(specId: string): string {
  const lower = specId.trim().toLowerCase();
  // Only the first colon separates the provider: Ollama ids carry tags (`llama3.1:8b`).
  const model = lower.slice(lower.indexOf(":") + 1);
  return model.slice(model.lastIndexOf("/") + 1);
}

const OVERRIDE_HELP =
  'MODEL_CONTEXT_WINDOWS must be a JSON object mapping model ids to context sizes in tokens, e.g. {"openai-compatible:llama3.1:8b": 8192}';

/** Reads `MODEL_CONTEXT_WINDOWS`; a malformed value is a configuration error naming the variable. */
export function loadContextWindows(env: Record<string, string | undefined>): ContextWindowTable {
  const raw = env.MODEL_CONTEXT_WINDOWS?.trim();
  const table: ContextWindowTable = { overrides: {}, defaultTokens: DEFAULT_CONTEXT_TOKENS };
  if (!raw) return table;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ModelConfigError(`${OVERRIDE_HELP}; it is not valid JSON.`, {
      variable: "MODEL_CONTEXT_WINDOWS",
    });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ModelConfigError(`${OVERRIDE_HELP}.`, { variable: "MODEL_CONTEXT_WINDOWS" });
  }
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 512) {
      throw new ModelConfigError(
        `${OVERRIDE_HELP}; the value for ${JSON.stringify(key)} must be an integer of at least 512.`,
        { variable: "MODEL_CONTEXT_WINDOWS" },
      );
    }
    table.overrides[key.trim().toLowerCase()] = value;
  }
  return table;
}

export const builtinContextWindows: ContextWindowTable = {
  overrides: {},
  defaultTokens: DEFAULT_CONTEXT_TOKENS,
};

/** Context window in tokens of the model behind a `provider:model` spec id. */
export function contextWindowTokens(
  specId: string,
  table: ContextWindowTable = builtinContextWindows,
): number {
  const full = specId.trim().toLowerCase();
  const bare = bareModelId(specId);
  let best: { length: number; tokens: number } | undefined;
  for (const [key, tokens] of Object.entries(table.overrides)) {
    const hit = full.startsWith(key) || bare.startsWith(key);
    if (hit && (!best || key.length > best.length)) best = { length: key.length, tokens };
  }
  if (best) return best.tokens;
  for (const [pattern, tokens] of KNOWN_MODELS) if (pattern.test(bare)) return tokens;
  return table.defaultTokens;
}
