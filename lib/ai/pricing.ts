import { z } from "zod";
import { ModelConfigError } from "./errors.ts";
import type { Env } from "./providers.ts";
import type { ModelSpec } from "./spec.ts";

/** USD per million tokens. `cachedInput` applies to cache-read input tokens when given. */
export type ModelPrice = { input: number; output: number; cachedInput?: number };

/**
 * Keys are `provider:model-id` or a bare model id; a key also matches dated or tagged variants
 * (`gpt-4.1` covers `gpt-4.1-2025-04-14`), the longest key winning.
 */
export type PricingTable = Record<string, ModelPrice>;

// List prices at the time of writing; they change. Override or extend with MODEL_PRICING, e.g.
// MODEL_PRICING='{"openai:gpt-4.1":{"input":2,"output":8},"my-local-model":{"input":0,"output":0}}'
export const DEFAULT_PRICING: PricingTable = {
  "gpt-5": { input: 1.25, output: 10, cachedInput: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cachedInput: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cachedInput: 0.005 },
  "gpt-4.1": { input: 2, output: 8, cachedInput: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cachedInput: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cachedInput: 0.025 },
  "gpt-4o": { input: 2.5, output: 10, cachedInput: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cachedInput: 0.075 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  "o3-mini": { input: 1.1, output: 4.4, cachedInput: 0.55 },
  "o4-mini": { input: 1.1, output: 4.4, cachedInput: 0.275 },
  "claude-opus-4": { input: 15, output: 75, cachedInput: 1.5 },
  "claude-opus-4-1": { input: 15, output: 75, cachedInput: 1.5 },
  "claude-opus-4-5": { input: 5, output: 25, cachedInput: 0.5 },
  "claude-sonnet-4": { input: 3, output: 15, cachedInput: 0.3 },
  "claude-sonnet-4-5": { input: 3, output: 15, cachedInput: 0.3 },
  "claude-3-7-sonnet": { input: 3, output: 15, cachedInput: 0.3 },
  "claude-haiku-4-5": { input: 1, output: 5, cachedInput: 0.1 },
  "claude-3-5-haiku": { input: 0.8, output: 4, cachedInput: 0.08 },
  "gemini-2.5-pro": { input: 1.25, output: 10, cachedInput: 0.31 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5, cachedInput: 0.075 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cachedInput: 0.025 },
  "gemini-2.0-flash": { input: 0.1, output: 0.4, cachedInput: 0.025 },
};

const priceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cachedInput: z.number().nonnegative().optional(),
});
const tableSchema = z.record(z.string().min(1), priceSchema);

/** Defaults merged with `MODEL_PRICING` (JSON object of key → {input, output, cachedInput?}). */
export function loadPricing(env: Env = process.env, base: PricingTable = DEFAULT_PRICING): PricingTable {
  const raw = env.MODEL_PRICING?.trim();
  if (!raw) return { ...base };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new ModelConfigError(`MODEL_PRICING is not valid JSON: ${(e as Error).message}`, {
      variable: "MODEL_PRICING",
      cause: e,
    });
  }
  const result = tableSchema.safeParse(parsed);
  if (!result.success) {
    throw new ModelConfigError(
      `MODEL_PRICING must map model ids to {"input": USD per 1M tokens, "output": USD per 1M tokens}: ${z.prettifyError(result.error)}`,
      { variable: "MODEL_PRICING" },
    );
  }
  return { ...base, ...result.data };
}

function prefixMatch(key: string, id: string): boolean {
  // `o3` must not price `o3x`, only `o3` and `o3-...`/`o3@...`/`o3:...` variants.
  return id === key || (id.startsWith(key) && /[-@:]/.test(id.charAt(key.length)));
}

export function findPrice(
  table: PricingTable,
  spec: Pick<ModelSpec, "provider" | "modelId">,
): ModelPrice | undefined {
  const full = `${spec.provider}:${spec.modelId}`;
  if (table[full]) return table[full];
  if (table[spec.modelId]) return table[spec.modelId];
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const qualified = key.includes(":");
    if (qualified ? !prefixMatch(key, full) : !prefixMatch(key, spec.modelId)) continue;
    // Provider-qualified keys beat bare ones of the same length.
    const rank = (k: string) => (k.includes(":") ? k.length - k.indexOf(":") - 1 + 0.5 : k.length);
    if (!best || rank(key) > rank(best)) best = key;
  }
  return best ? table[best] : undefined;
}

export function costOf(
  price: ModelPrice,
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number },
): number {
  const cached = price.cachedInput === undefined ? 0 : Math.min(usage.cachedInputTokens, usage.inputTokens);
  const uncached = usage.inputTokens - cached;
  return (
    (uncached * price.input +
      cached * (price.cachedInput ?? price.input) +
      usage.outputTokens * price.output) /
    1e6
  );
}
