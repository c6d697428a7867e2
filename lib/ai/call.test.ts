import { tool } from "ai";
import type { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  apiError,
  type ScriptStep,
  scriptedModel,
  streamingModel,
  textResult,
  usageOf,
} from "../../test/support/ai-mocks.ts";
import { callText } from "./call.ts";
import { ContextWindowError } from "./context-errors.ts";
import { ModelCallError, ModelConfigError, ModelTimeoutError } from "./errors.ts";
import { createModelRegistry } from "./registry.ts";
import { BudgetExceededError, UsageMeter } from "./usage.ts";

const rateLimited = (headers: Record<string, string> = {}) =>
  apiError({
    status: 429,
    headers,
    body: {
      error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" },
    },
  });

/** A registry whose every role uses `model` (provider "test"), recording waits instead of sleeping. */
function setup(
  model: MockLanguageModelV4,
  opts: { maxAttempts?: number; timeoutMs?: number; maxConcurrency?: number } = {},
) {
  const waits: number[] = [];
  const registry = createModelRegistry({
    env: { MODEL: "test:model-a" },
    providerFactories: { test: () => model },
    settings: {
      timeoutMs: opts.timeoutMs ?? 5_000,
      maxConcurrency: opts.maxConcurrency,
      retry: { maxAttempts: opts.maxAttempts ?? 4, baseDelayMs: 1 },
    },
    pricing: { "test:model-a": { input: 1, output: 2 } },
    sleep: async (ms) => void waits.push(ms),
  });
  const meter = new UsageMeter({ pricing: registry.pricing });
  return { registry, meter, waits, deps: { registry, meter } };
}

const scripted = (steps: ScriptStep[]) => scriptedModel(steps, { provider: "test", modelId: "model-a" });

describe("callText", () => {
  it("returns the text and records usage and cost for the role", async () => {
    const model = scripted([textResult("hello", { input: 1000, output: 500 })]);
    const { deps, meter } = setup(model);
    const r = await callText(deps, "researcher", { instructions: "be brief", prompt: "hi" });
    expect(r).toMatchObject({ text: "hello", model: "test:model-a", attempts: 1, finishReason: "stop" });
    expect(r.usage).toMatchObject({ inputTokens: 1000, outputTokens: 500 });
    expect(meter.role("researcher")).toMatchObject({ inputTokens: 1000, outputTokens: 500, calls: 1 });
    expect(meter.total.costUsd).toBeCloseTo((1000 * 1 + 500 * 2) / 1e6, 12);
    // the SDK is told not to retry on its own and gets a cancellable signal
    expect(model.doGenerateCalls[0].abortSignal).toBeInstanceOf(AbortSignal);
    expect(JSON.stringify(model.doGenerateCalls[0].prompt)).toContain("be brief");
  });

  it("retries a 429 twice and then succeeds, honouring Retry-After", async () => {
    const model = scripted([
      rateLimited({ "retry-after": "2" }),
      rateLimited({ "retry-after-ms": "40" }),
      textResult("done"),
    ]);
    const retries: number[] = [];
    const { deps, waits, meter } = setup(model);
    const r = await callText({ ...deps, onRetry: (e) => retries.push(e.attempt) }, "supervisor", {
      prompt: "go",
    });
    expect(r.text).toBe("done");
    expect(r.attempts).toBe(3);
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(waits).toEqual([2000, 40]);
    expect(retries).toEqual([1, 2]);
    expect(meter.role("supervisor").calls).toBe(1); // failed attempts are not billed calls
  });

  it("gives up after maxAttempts with a readable ModelCallError", async () => {
    const model = scripted([rateLimited(), rateLimited(), rateLimited(), textResult("too late")]);
    const { deps } = setup(model, { maxAttempts: 3 });
    const err = await callText(deps, "researcher", { prompt: "go" }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err).toMatchObject({
      attempts: 3,
      statusCode: 429,
      retryable: true,
      role: "researcher",
      model: "test:model-a",
    });
    expect(err.message).toContain("researcher model test:model-a failed after 3 attempts (HTTP 429)");
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it("does not retry an ordinary 400", async () => {
    const model = scripted([
      apiError({
        status: 400,
        body: { error: { message: "Invalid value for 'temperature'", code: "invalid_value" } },
      }),
      textResult("unreachable"),
    ]);
    const { deps } = setup(model);
    const err = await callText(deps, "researcher", { prompt: "go" }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err).toMatchObject({ attempts: 1, statusCode: 400, retryable: false });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("surfaces a context-window error as ContextWindowError without retrying", async () => {
    const model = scripted([
      apiError({
        status: 400,
        body: {
          type: "error",
          error: {
            type: "invalid_request_error",
            message: "prompt is too long: 210000 tokens > 200000 maximum",
          },
        },
      }),
      textResult("unreachable"),
    ]);
    const { deps } = setup(model);
    const err = await callText(deps, "compression", { prompt: "huge" }).catch((e) => e);
    expect(err).toBeInstanceOf(ContextWindowError);
    expect(err).toMatchObject({
      role: "compression",
      model: "test:model-a",
      limitTokens: 200000,
      requestedTokens: 210000,
    });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("rejects promptly when aborted mid-call, even if the model ignores the signal", async () => {
    const model = scripted([() => new Promise(() => {})]);
    const { deps } = setup(model);
    const controller = new AbortController();
    const started = Date.now();
    const p = callText({ ...deps, signal: controller.signal }, "researcher", { prompt: "slow" });
    setTimeout(() => controller.abort(), 20);
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("passes the abort through to the provider call's signal", async () => {
    let providerSignal: AbortSignal | undefined;
    const model = scripted([
      (o) =>
        new Promise((_, reject) => {
          providerSignal = o.abortSignal;
          o.abortSignal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    ]);
    const { deps } = setup(model);
    const controller = new AbortController();
    const p = callText(deps, "researcher", { prompt: "slow", abortSignal: controller.signal });
    await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    expect(providerSignal?.aborted).toBe(true);
  });

  it("times out each attempt and gives up after the configured attempts", async () => {
    const model = scripted([() => new Promise(() => {}), () => new Promise(() => {})]);
    const { deps } = setup(model, { timeoutMs: 15, maxAttempts: 2 });
    const err = await callText(deps, "researcher", { prompt: "slow" }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err.cause).toBeInstanceOf(ModelTimeoutError);
    expect(err.attempts).toBe(2);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it("a timed-out attempt that is retried can still succeed", async () => {
    const model = scripted([() => new Promise(() => {}), textResult("second try")]);
    const { deps } = setup(model, { timeoutMs: 15 });
    await expect(callText(deps, "researcher", { prompt: "x" })).resolves.toMatchObject({
      text: "second try",
      attempts: 2,
    });
  });

  it("limits concurrent calls per provider", async () => {
    let active = 0;
    let peak = 0;
    const slow = async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 10));
      active--;
      return textResult("ok");
    };
    const model = scripted([slow, slow, slow, slow, slow]);
    const { deps } = setup(model, { maxConcurrency: 2 });
    await Promise.all([1, 2, 3, 4, 5].map(() => callText(deps, "researcher", { prompt: "x" })));
    expect(peak).toBe(2);
    expect(model.doGenerateCalls).toHaveLength(5);
  });

  it("returns tool calls for tools without execute, for the engine's own loop", async () => {
    const model = scripted([
      {
        content: [
          {
            type: "tool-call",
            toolCallId: "c1",
            toolName: "web_search",
            input: JSON.stringify({ query: "pgvector" }),
          },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usageOf(20, 8),
        warnings: [],
      },
    ]);
    const { deps } = setup(model);
    const tools = {
      web_search: tool({ description: "search", inputSchema: z.object({ query: z.string() }) }),
    };
    const r = await callText(deps, "researcher", { prompt: "research", tools });
    expect(r.finishReason).toBe("tool-calls");
    expect(r.toolCalls).toHaveLength(1);
    expect(r.toolCalls[0]).toMatchObject({ toolName: "web_search", input: { query: "pgvector" } });
    expect(r.responseMessages[0]).toMatchObject({ role: "assistant" });
  });

  it("streams text deltas and records the stream's usage", async () => {
    const model = streamingModel(["The ", "report ", "begins."], { input: 70, output: 30 });
    const registry = createModelRegistry({
      env: { MODEL: "test:m" },
      providerFactories: { test: () => model },
    });
    const meter = new UsageMeter();
    const deltas: string[] = [];
    const r = await callText({ registry, meter }, "synthesis", {
      prompt: "write",
      onTextDelta: (d) => deltas.push(d),
    });
    expect(deltas).toEqual(["The ", "report ", "begins."]);
    expect(r.text).toBe("The report begins.");
    expect(meter.role("synthesis")).toMatchObject({ inputTokens: 70, outputTokens: 30, calls: 1 });
  });

  it("throws ModelConfigError for an unconfigured role before calling anything", async () => {
    const registry = createModelRegistry({ env: {} });
    await expect(callText({ registry }, "researcher", { prompt: "x" })).rejects.toBeInstanceOf(
      ModelConfigError,
    );
  });
});

describe("budget", () => {
  it("stops further calls once the token budget is used, keeping the call that crossed it", async () => {
    const model = scripted([textResult("first", { input: 80, output: 40 }), textResult("never")]);
    const { deps, meter } = setup(model);
    meter.budget = { maxTokens: 100 };
    await expect(callText(deps, "researcher", { prompt: "a" })).resolves.toMatchObject({ text: "first" });
    const err = await callText(deps, "researcher", { prompt: "b" }).catch((e) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect(err).toMatchObject({ limit: "tokens", max: 100, used: 120, role: "researcher" });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("stops on the cost budget, and ignoreBudget lets the partial report be written", async () => {
    const model = scripted([
      textResult("costly", { input: 1_000_000, output: 0 }),
      textResult("partial report"),
    ]);
    const { deps, meter } = setup(model);
    meter.budget = { maxCostUsd: 0.5 };
    await callText(deps, "researcher", { prompt: "a" });
    expect(meter.total.costUsd).toBeCloseTo(1, 9);
    await expect(callText(deps, "synthesis", { prompt: "b" })).rejects.toMatchObject({
      limit: "cost",
      max: 0.5,
    });
    await expect(callText(deps, "synthesis", { prompt: "b", ignoreBudget: true })).resolves.toMatchObject({
      text: "partial report",
    });
  });
});
