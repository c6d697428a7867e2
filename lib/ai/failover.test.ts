// Failover along a role's chain, decided per kind of error, with the circuit breaker per provider
// on an injected clock, and cost counted once per call that was made. Mock models (ai/test) stand
// for two providers, "a" and "b".
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiError, type ScriptStep, scriptedModel, textResult } from "../../test/support/ai-mocks.ts";
import { callText, type ModelFailoverEvent } from "./call.ts";
import { ContextWindowError } from "./context-errors.ts";
import { ModelCallError } from "./errors.ts";
import { failoverFor } from "./failover.ts";
import { createModelRegistry } from "./registry.ts";
import { callObject } from "./structured.ts";
import { BudgetExceededError, UsageMeter } from "./usage.ts";

const openAiError = (status: number, message: string, code: string | null = null) =>
  apiError({ status, body: { error: { message, type: "invalid_request_error", param: null, code } } });

const unauthorized = () => openAiError(401, "Incorrect API key provided: sk-te***st.", "invalid_api_key");
const serverError = () => apiError({ status: 500, body: { error: { message: "The server had an error" } } });

function setup(
  stepsA: ScriptStep[] | MockLanguageModelV4,
  stepsB: ScriptStep[] | MockLanguageModelV4,
  opts: { maxAttempts?: number; failures?: number; chain?: string } = {},
) {
  const a = Array.isArray(stepsA) ? scriptedModel(stepsA, { provider: "a", modelId: "one" }) : stepsA;
  const b = Array.isArray(stepsB) ? scriptedModel(stepsB, { provider: "b", modelId: "two" }) : stepsB;
  const clock = { now: 0 };
  const registry = createModelRegistry({
    env: { MODEL: opts.chain ?? "a:one,b:two" },
    providerFactories: { a: () => a, b: () => b },
    settings: {
      timeoutMs: 5_000,
      retry: { maxAttempts: opts.maxAttempts ?? 3, baseDelayMs: 1 },
      breaker: { failureThreshold: opts.failures ?? 3, cooldownMs: 1000 },
    },
    pricing: { "a:one": { input: 1, output: 1 }, "b:two": { input: 10, output: 10 } },
    sleep: async () => {},
    now: () => clock.now,
  });
  const meter = new UsageMeter({ pricing: registry.pricing });
  const switches: ModelFailoverEvent[] = [];
  const deps = { registry, meter, onFailover: (e: ModelFailoverEvent) => switches.push(e) };
  return { a, b, registry, meter, switches, deps, clock };
}

describe("failover to the next model of the chain", () => {
  it.each([
    ["auth", () => unauthorized()],
    ["auth", () => openAiError(403, "Project does not have access to model gpt-5.1")],
    [
      "quota",
      () =>
        openAiError(
          429,
          "You exceeded your current quota, please check your plan and billing details.",
          "insufficient_quota",
        ),
    ],
    ["quota", () => openAiError(400, "Your credit balance is too low to access the Anthropic API.")],
    ["model_not_found", () => openAiError(404, "The model `gpt-9` does not exist", "model_not_found")],
    [
      "refused",
      () => openAiError(400, "Invalid schema for response_format 'plan': 'minLength' is not permitted."),
    ],
  ])("goes on after %s, without retrying the first model", async (reason, error) => {
    const { a, b, switches, deps, meter } = setup(
      [error()],
      [textResult("from b", { input: 100, output: 10 })],
    );
    const r = await callText(deps, "supervisor", { prompt: "hi" });
    expect(r).toMatchObject({ text: "from b", model: "b:two", attempts: 1 });
    expect(a.doGenerateCalls).toHaveLength(1);
    expect(b.doGenerateCalls).toHaveLength(1);
    expect(switches).toEqual([
      {
        role: "supervisor",
        from: "a:one",
        to: "b:two",
        reason,
        detail: expect.stringMatching(/^HTTP \d{3}: /),
      },
    ]);
    // Cost once, for the call that answered, at its model's price.
    expect(meter.snapshot().byModel).toEqual({
      "b:two": expect.objectContaining({ calls: 1, costUsd: 1100 / 1e6 }),
    });
    expect(meter.total.calls).toBe(1);
  });

  it("goes on once the retries on 5xx are spent, on the first model only", async () => {
    const { a, b, switches, deps } = setup([serverError(), serverError()], [textResult("from b")], {
      maxAttempts: 2,
    });
    await expect(callText(deps, "researcher", { prompt: "hi" })).resolves.toMatchObject({ model: "b:two" });
    expect(a.doGenerateCalls).toHaveLength(2);
    expect(b.doGenerateCalls).toHaveLength(1);
    expect(switches).toMatchObject([{ reason: "unavailable", detail: expect.stringContaining("HTTP 500") }]);
  });

  it("keeps a context-window error for the engine's shortening: no switch", async () => {
    const { b, switches, deps } = setup(
      [openAiError(400, "This model's maximum context length is 8192 tokens.", "context_length_exceeded")],
      [textResult("unreachable")],
    );
    await expect(callText(deps, "compression", { prompt: "huge" })).rejects.toBeInstanceOf(
      ContextWindowError,
    );
    expect(b.doGenerateCalls).toHaveLength(0);
    expect(switches).toEqual([]);
  });

  it("keeps a cancellation a cancellation: no switch", async () => {
    const { b, switches, deps } = setup([() => new Promise(() => {})], [textResult("unreachable")]);
    const controller = new AbortController();
    const p = callText({ ...deps, signal: controller.signal }, "researcher", { prompt: "slow" });
    setTimeout(() => controller.abort(), 10);
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    expect(b.doGenerateCalls).toHaveLength(0);
    expect(switches).toEqual([]);
  });

  it("keeps a spent budget a stop: no call to any model", async () => {
    const { a, b, deps, meter } = setup([textResult("x")], [textResult("y")]);
    meter.budget = { maxTokens: 0 };
    await expect(callText(deps, "researcher", { prompt: "hi" })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(a.doGenerateCalls.length + b.doGenerateCalls.length).toBe(0);
  });

  it("never switches after a stream has shown text (the reader would see it twice)", async () => {
    // A stream that shows some text, then breaks with a 500.
    const streamed = new MockLanguageModelV4({
      provider: "a",
      modelId: "one",
      doStream: async () => ({
        stream: new ReadableStream({
          start(c) {
            c.enqueue({ type: "stream-start", warnings: [] });
            c.enqueue({ type: "text-start", id: "t" });
            c.enqueue({ type: "text-delta", id: "t", delta: "Partial " });
            // Later, not at once: an error discards the chunks still queued.
            setTimeout(() => c.error(serverError()), 5);
          },
        }),
      }),
    });
    const { b, switches, deps } = setup(streamed, [textResult("unreachable")]);
    const deltas: string[] = [];
    const err = await callText(deps, "synthesis", {
      prompt: "write",
      onTextDelta: (d) => deltas.push(d),
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(deltas).toEqual(["Partial "]);
    expect(b.doStreamCalls).toHaveLength(0);
    expect(switches).toEqual([]);
  });

  it("fails with the last model's error when every model fails", async () => {
    const { switches, deps } = setup([unauthorized()], [openAiError(404, "model not found")]);
    const err = await callText(deps, "supervisor", { prompt: "hi" }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err).toMatchObject({ model: "b:two", statusCode: 404 });
    expect(switches).toHaveLength(1);
  });

  it("a structured call switches too, and its answer comes from the next model", async () => {
    const { deps, switches } = setup([unauthorized()], [textResult('{"ok":true}')]);
    const r = await callObject(deps, "supervisor", { prompt: "p", schema: z.object({ ok: z.boolean() }) });
    expect(r).toMatchObject({ ok: true, value: { ok: true }, model: "b:two" });
    expect(switches).toHaveLength(1);
  });
});

describe("cost is counted once per call made", () => {
  it("counts a failed call that returned usage to its own model, then the answer to the next", async () => {
    const paid = Object.assign(unauthorized(), {
      usage: { inputTokens: 40, outputTokens: 2, inputTokenDetails: {}, outputTokenDetails: {} },
    });
    const { deps, meter } = setup([paid], [textResult("from b", { input: 5, output: 5 })]);
    await callText(deps, "researcher", { prompt: "hi" });
    const byModel = meter.snapshot().byModel;
    expect(byModel["a:one"]).toMatchObject({ calls: 1, inputTokens: 40, outputTokens: 2, costUsd: 42 / 1e6 });
    expect(byModel["b:two"]).toMatchObject({ calls: 1, inputTokens: 5, outputTokens: 5, costUsd: 100 / 1e6 });
    expect(meter.total).toMatchObject({ calls: 2, costUsd: 142 / 1e6 });
  });
});

describe("the circuit breaker in the chain", () => {
  it("stops sending to a failing provider, tries it again after the cooldown, and returns to it", async () => {
    const a = scriptedModel([unauthorized(), unauthorized(), textResult("a is back")], {
      provider: "a",
      modelId: "one",
    });
    const { b, switches, deps, clock, registry } = setup(a, Array(4).fill(textResult("from b")), {
      failures: 2,
    });
    for (let i = 0; i < 2; i++) await callText(deps, "researcher", { prompt: `call ${i}` });
    expect(registry.breaker("a").state).toBe("open");
    // Open: the next calls go straight to b, announced once per run, not once per call.
    await callText(deps, "researcher", { prompt: "call 2" });
    await callText(deps, "researcher", { prompt: "call 3" });
    expect(a.doGenerateCalls).toHaveLength(2);
    expect(b.doGenerateCalls).toHaveLength(4);
    expect(switches.map((s) => s.reason)).toEqual(["auth", "auth", "paused"]);
    expect(switches[2]).toMatchObject({
      from: "a:one",
      to: "b:two",
      detail: expect.stringContaining("1970-01-01T00:00:01"),
    });
    // After the cooldown one trial call goes to a; it answers, and the breaker closes.
    clock.now += 1000;
    expect(registry.breaker("a").state).toBe("half_open");
    await expect(callText(deps, "researcher", { prompt: "call 4" })).resolves.toMatchObject({
      model: "a:one",
    });
    expect(registry.breaker("a").state).toBe("closed");
  });

  it("does not count a model-specific refusal against the provider", async () => {
    const { deps, registry } = setup(
      Array(3).fill(openAiError(404, "no such model")),
      Array(3).fill(textResult("b")),
      {
        failures: 2,
      },
    );
    for (let i = 0; i < 3; i++) await callText(deps, "researcher", { prompt: `${i}` });
    expect(registry.breaker("a").state).toBe("closed");
  });

  it("still tries the last model of a chain when its provider is paused", async () => {
    const { a, deps, registry } = setup([unauthorized(), unauthorized(), textResult("a answers")], [], {
      chain: "a:one",
      failures: 2,
    });
    for (let i = 0; i < 2; i++) await callText(deps, "researcher", { prompt: `${i}` }).catch(() => {});
    expect(registry.breaker("a").state).toBe("open");
    await expect(callText(deps, "researcher", { prompt: "again" })).resolves.toMatchObject({
      text: "a answers",
    });
    expect(a.doGenerateCalls).toHaveLength(3);
  });
});

describe("failoverFor", () => {
  it("leaves errors that are not provider failures alone", () => {
    expect(failoverFor(new Error("boom"))).toBeUndefined();
    expect(failoverFor(new DOMException("aborted", "AbortError"))).toBeUndefined();
    const ok = new ModelCallError({
      role: "r",
      model: "m",
      attempts: 1,
      statusCode: 200,
      retryable: false,
      cause: "?",
    });
    expect(failoverFor(ok)).toBeUndefined();
  });
});
