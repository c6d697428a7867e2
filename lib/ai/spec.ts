import { ModelConfigError } from "./errors.ts";

export const BUILTIN_PROVIDERS = ["openai", "anthropic", "google", "openai-compatible"] as const;
export type BuiltinProvider = (typeof BUILTIN_PROVIDERS)[number];

/** A parsed `provider:model-id`. `id` is the canonical string (used for pricing and display). */
export type ModelSpec = {
  provider: string;
  modelId: string;
  id: string;
};

// Names people commonly type for a provider we reach differently; the error points them the right way.
const PROVIDER_HINTS: Record<string, string> = {
  ollama: "openai-compatible",
  vllm: "openai-compatible",
  lmstudio: "openai-compatible",
  "lm-studio": "openai-compatible",
  llamacpp: "openai-compatible",
  "llama.cpp": "openai-compatible",
  openai_compatible: "openai-compatible",
  openaicompatible: "openai-compatible",
  compatible: "openai-compatible",
  gemini: "google",
  claude: "anthropic",
};

export function acceptedForms(providers: readonly string[] = BUILTIN_PROVIDERS): string {
  return providers.map((p) => `${p}:<model-id>`).join(", ");
}

const EXAMPLES =
  "e.g. openai:gpt-4.1, anthropic:claude-sonnet-4-5, google:gemini-2.5-flash, " +
  "openai-compatible:llama3.1 (with OPENAI_COMPATIBLE_BASE_URL)";

/**
 * Parse `provider:model-id`. Only the first colon separates: model ids may contain colons
 * themselves (Ollama tags such as `llama3.1:8b`). Errors name the variable the value came from.
 */
export function parseModelSpec(
  value: string,
  opts: { variable: string; providers?: readonly string[] },
): ModelSpec {
  const providers = opts.providers ?? BUILTIN_PROVIDERS;
  const raw = value.trim();
  const forms = `Accepted forms: ${acceptedForms(providers)} (${EXAMPLES}).`;
  if (!raw) throw new ModelConfigError(`${opts.variable} is empty. ${forms}`, { variable: opts.variable });
  const colon = raw.indexOf(":");
  if (colon <= 0) {
    throw new ModelConfigError(
      `${opts.variable}=${JSON.stringify(raw)} is not a model spec: expected provider:model-id. ${forms}`,
      { variable: opts.variable },
    );
  }
  const provider = raw.slice(0, colon).trim().toLowerCase();
  const modelId = raw.slice(colon + 1).trim();
  if (!providers.includes(provider)) {
    const hint = PROVIDER_HINTS[provider];
    const suggestion = hint
      ? ` Did you mean ${hint}:${modelId || "<model-id>"}?` +
        (hint === "openai-compatible"
          ? " Point OPENAI_COMPATIBLE_BASE_URL at the server (Ollama: http://localhost:11434/v1)."
          : "")
      : "";
    throw new ModelConfigError(
      `${opts.variable}=${JSON.stringify(raw)} names unknown provider "${provider}".${suggestion} ${forms}`,
      { variable: opts.variable },
    );
  }
  if (!modelId || /\s/.test(modelId)) {
    throw new ModelConfigError(
      `${opts.variable}=${JSON.stringify(raw)} has ${modelId ? "whitespace in" : "no"} model id. ${forms}`,
      { variable: opts.variable },
    );
  }
  return { provider, modelId, id: `${provider}:${modelId}` };
}

/**
 * Parse a chain: `provider:model-id` or several of them separated by commas, tried in order when a
 * call fails (`openai:gpt-5.1,anthropic:claude-sonnet-4-5`). Blank members and repeats are dropped;
 * a malformed member is an error naming the variable, like a single spec.
 */
export function parseModelChain(
  value: string,
  opts: { variable: string; providers?: readonly string[] },
): ModelSpec[] {
  const members = value
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (!members.length) return [parseModelSpec("", opts)]; // throws the "is empty" error
  const chain: ModelSpec[] = [];
  for (const member of members) {
    const spec = parseModelSpec(member, opts);
    if (!chain.some((s) => s.id === spec.id)) chain.push(spec);
  }
  return chain;
}

/** A chain as stored and shown: its members' ids joined by commas. */
export function chainText(chain: readonly ModelSpec[]): string {
  return chain.map((s) => s.id).join(",");
}
