import { describe, expect, it } from "vitest";
import { ModelConfigError } from "./errors.ts";
import { costOf, DEFAULT_PRICING, findPrice, loadPricing } from "./pricing.ts";
import { parseModelSpec } from "./spec.ts";
import { BudgetExceededError, toTokenUsage, UsageMeter } from "./usage.ts";

const spec = (s: string) =>
  parseModelSpec(s, { variable: "MODEL", providers: ["openai", "anthropic", "openai-compatible", "test"] });
const tokens = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  reasoningTokens: 0,
});

describe("pricing", () => {
  it("finds exact, dated and provider-qualified prices, the longest key winning", () => {
    expect(findPrice(DEFAULT_PRICING, spec("openai:gpt-4o"))).toEqual(DEFAULT_PRICING["gpt-4o"]);
    expect(findPrice(DEFAULT_PRICING, spec("openai:gpt-4o-mini-2024-07-18"))).toEqual(
      DEFAULT_PRICING["gpt-4o-mini"],
    );
    expect(findPrice(DEFAULT_PRICING, spec("anthropic:claude-sonnet-4-20250514"))).toEqual(
      DEFAULT_PRICING["claude-sonnet-4"],
    );
    expect(findPrice(DEFAULT_PRICING, spec("openai:o3-mini"))).toEqual(DEFAULT_PRICING["o3-mini"]);
    expect(findPrice(DEFAULT_PRICING, spec("openai:o3x"))).toBeUndefined();
    expect(findPrice(DEFAULT_PRICING, spec("openai-compatible:llama3.1"))).toBeUndefined();
    const table = { ...DEFAULT_PRICING, "openai-compatible:gpt-4o": { input: 0, output: 0 } };
    expect(findPrice(table, spec("openai-compatible:gpt-4o"))).toEqual({ input: 0, output: 0 });
    expect(findPrice(table, spec("openai:gpt-4o"))).toEqual(DEFAULT_PRICING["gpt-4o"]);
  });

  it("merges MODEL_PRICING over the defaults", () => {
    const table = loadPricing({
      MODEL_PRICING: JSON.stringify({
        "gpt-4o": { input: 1, output: 1 },
        "openai-compatible:qwen3": { input: 0.1, output: 0.2 },
      }),
    });
    expect(table["gpt-4o"]).toEqual({ input: 1, output: 1 });
    expect(table["openai-compatible:qwen3"]).toEqual({ input: 0.1, output: 0.2 });
    expect(table["gpt-4.1"]).toEqual(DEFAULT_PRICING["gpt-4.1"]);
  });

  it("rejects invalid MODEL_PRICING by name", () => {
    expect(() => loadPricing({ MODEL_PRICING: "{nope" })).toThrow(ModelConfigError);
    expect(() => loadPricing({ MODEL_PRICING: "{nope" })).toThrow(/MODEL_PRICING is not valid JSON/);
    expect(() => loadPricing({ MODEL_PRICING: '{"x":{"input":-1,"output":1}}' })).toThrow(
      /MODEL_PRICING must map/,
    );
  });

  it("prices cached input at the cached rate", () => {
    const price = { input: 2, output: 8, cachedInput: 0.5 };
    expect(costOf(price, tokens(1_000_000, 0))).toBeCloseTo(2, 9);
    expect(costOf(price, tokens(1_000_000, 500_000, 400_000))).toBeCloseTo(0.6 * 2 + 0.4 * 0.5 + 0.5 * 8, 9);
    expect(costOf({ input: 2, output: 8 }, tokens(1_000_000, 0, 400_000))).toBeCloseTo(2, 9);
  });
});

describe("UsageMeter", () => {
  const pricing = { "test:big": { input: 10, output: 30 }, "test:small": { input: 1, output: 2 } };

  it("accumulates tokens and cost per role, per model and in total", () => {
    const meter = new UsageMeter({ pricing });
    meter.record("supervisor", spec("test:big"), tokens(1000, 200));
    meter.record("researcher", spec("test:small"), tokens(5000, 1000));
    meter.record("researcher", spec("test:small"), tokens(3000, 500));
    meter.record("researcher", spec("test:unpriced"), tokens(100, 10));
    expect(meter.role("researcher")).toMatchObject({
      inputTokens: 8100,
      outputTokens: 1510,
      totalTokens: 9610,
      calls: 3,
      unpricedCalls: 1,
    });
    expect(meter.role("researcher").costUsd).toBeCloseTo((8000 * 1 + 1500 * 2) / 1e6, 12);
    expect(meter.role("supervisor").costUsd).toBeCloseTo((1000 * 10 + 200 * 30) / 1e6, 12);
    const snap = meter.snapshot();
    expect(snap.byModel["test:small"].calls).toBe(2);
    expect(snap.total).toMatchObject({ calls: 4, inputTokens: 9100, outputTokens: 1710 });
    expect(snap.total.costUsd).toBeCloseTo(0.011 + 0.016, 12);
  });

  it("resumes from a snapshot (a worker picking up a run keeps the count)", () => {
    const a = new UsageMeter({ pricing });
    a.record("researcher", spec("test:small"), tokens(100, 50));
    const b = new UsageMeter({ pricing, initial: JSON.parse(JSON.stringify(a.snapshot())) });
    b.record("researcher", spec("test:small"), tokens(100, 50));
    expect(b.role("researcher")).toMatchObject({ calls: 2, totalTokens: 300 });
    expect(a.role("researcher").calls).toBe(1);
  });

  it("notifies listeners with each record", () => {
    const meter = new UsageMeter({ pricing });
    const seen: string[] = [];
    const off = meter.onRecord((r) => seen.push(`${r.role}:${r.model}:${r.total.calls}`));
    meter.record("researcher", spec("test:small"), tokens(1, 1));
    off();
    meter.record("researcher", spec("test:small"), tokens(1, 1));
    expect(seen).toEqual(["researcher:test:small:1"]);
  });

  it("reports the budget that is exhausted", () => {
    const meter = new UsageMeter({ pricing, budget: { maxTokens: 1000, maxCostUsd: 1 } });
    meter.record("researcher", spec("test:small"), tokens(500, 400));
    expect(meter.overBudget()).toBeUndefined();
    meter.record("researcher", spec("test:small"), tokens(50, 50));
    const err = meter.overBudget("supervisor");
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect(err).toMatchObject({ limit: "tokens", max: 1000, used: 1000, role: "supervisor" });
    expect(() => meter.assertWithinBudget()).toThrow(/1000 tokens used of a 1000-token budget/);
  });

  it("holds tokens of unpriced models to their own ceiling, which priced tokens do not use up", () => {
    const meter = new UsageMeter({ pricing, budget: { maxCostUsd: 100, maxUnpricedTokens: 1000 } });
    meter.record("researcher", spec("test:small"), tokens(5000, 5000));
    meter.record("researcher", spec("test:unpriced"), tokens(600, 300));
    expect(meter.total).toMatchObject({ totalTokens: 10_900, unpricedTokens: 900, unpricedCalls: 1 });
    expect(meter.overBudget()).toBeUndefined();
    meter.record("synthesis", spec("test:unpriced"), tokens(80, 20));
    const err = meter.overBudget("supervisor");
    expect(err).toMatchObject({ limit: "unpriced_tokens", max: 1000, used: 1000, role: "supervisor" });
    expect(err?.message).toMatch(
      /1000 tokens of models without a price used of the server's 1000-token ceiling/,
    );
  });

  it("resumes an older snapshot without unpriced tokens, counting them from zero", () => {
    const old = new UsageMeter({ pricing }).snapshot();
    const { unpricedTokens: _t, ...total } = old.total;
    const meter = new UsageMeter({ pricing, initial: { ...old, total: total as typeof old.total } });
    meter.record("researcher", spec("test:unpriced"), tokens(10, 5));
    expect(meter.total.unpricedTokens).toBe(15);
    expect(meter.role("researcher").unpricedTokens).toBe(15);
  });

  it("converts SDK usage, treating missing counts as zero", () => {
    expect(toTokenUsage(undefined)).toEqual(tokens(0, 0));
    expect(
      toTokenUsage({
        inputTokens: 12,
        outputTokens: undefined,
        totalTokens: 12,
        inputTokenDetails: { noCacheTokens: 2, cacheReadTokens: 10, cacheWriteTokens: 0 },
        outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
      }),
    ).toEqual(tokens(12, 0, 10));
  });
});
