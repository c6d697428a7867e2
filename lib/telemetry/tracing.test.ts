// Traces cost nothing and fail nothing when no OTLP endpoint is set (the API's no-op tracer), and
// model-call spans hold prompt and answer text only with OTEL_RECORD_CONTENT=true.
import { context, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedModel, textResult } from "../../test/support/ai-mocks.ts";
import { installInMemoryTracing } from "../../test/support/tracing.ts";
import { callText } from "../ai/call.ts";
import { createModelRegistry } from "../ai/registry.ts";
import { UsageMeter } from "../ai/usage.ts";
import { modelCallTelemetry } from "./ai-spans.ts";
import { startTracing, tracingActive, tracingConfigured, withSpan } from "./tracing.ts";

function modelDeps(answer: string) {
  const model = scriptedModel([textResult(answer, { input: 30, output: 7 })], {
    provider: "test",
    modelId: "m",
  });
  const registry = createModelRegistry({
    env: { MODEL: "test:m" },
    providerFactories: { test: () => model },
    settings: { retry: { maxAttempts: 1 } },
    pricing: { "test:m": { input: 1, output: 2 } },
  });
  return { registry, meter: new UsageMeter({ pricing: registry.pricing }) };
}

const PROMPT = "What is the boiling point of water at the top of Mont Blanc?";
const ANSWER = "About 85 degrees Celsius.";

describe("without an OTLP endpoint", () => {
  it("starts no SDK, records nothing and still runs every traced path", async () => {
    expect(tracingConfigured({})).toBe(false);
    expect(await startTracing({})).toBe(false);
    const probe = trace.getTracer("deep-research").startSpan("probe");
    expect(probe.isRecording()).toBe(false);
    probe.end();
    const value = await withSpan("phase brief", { "run.phase": "brief" }, async (span) => {
      expect(span.isRecording()).toBe(false);
      expect(tracingActive()).toBe(false);
      // The SDK is not even given a telemetry option.
      expect(modelCallTelemetry({ role: "researcher", model: "test:m", provider: "test" })).toBeUndefined();
      return callText(modelDeps(ANSWER), "researcher", { prompt: PROMPT });
    });
    expect(value.text).toBe(ANSWER);
    await expect(withSpan("failing", {}, async () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
  });
});

describe("with a tracer provider", () => {
  afterEach(() => {
    delete process.env.OTEL_RECORD_CONTENT;
  });

  async function tracedCall() {
    const tracing = installInMemoryTracing();
    try {
      await withSpan("directive", {}, () => callText(modelDeps(ANSWER), "researcher", { prompt: PROMPT }));
      return tracing.spans();
    } finally {
      await tracing.uninstall();
    }
  }

  it("records no prompt or answer by default, but tokens, role and model", async () => {
    const spans = await tracedCall();
    const call = spans.find((s) => s.name === "model researcher");
    expect(call?.attributes).toMatchObject({
      "deep_research.role": "researcher",
      "gen_ai.request.model": "test:m",
      "gen_ai.usage.input_tokens": 30,
      "gen_ai.usage.output_tokens": 7,
    });
    expect(call?.attributes["deep_research.cost_usd"]).toBeCloseTo((30 * 1 + 7 * 2) / 1e6, 12);
    const chat = spans.find((s) => s.name === "gen_ai.chat");
    expect(chat?.attributes["gen_ai.usage.input_tokens"]).toBe(30);
    const all = JSON.stringify(spans.map((s) => s.attributes));
    expect(all).not.toContain("Mont Blanc");
    expect(all).not.toContain("85 degrees");
  });

  it("records prompt and answer with OTEL_RECORD_CONTENT=true", async () => {
    process.env.OTEL_RECORD_CONTENT = "true";
    const spans = await tracedCall();
    const chat = spans.find((s) => s.name === "gen_ai.chat");
    expect(String(chat?.attributes["gen_ai.prompt"])).toContain("Mont Blanc");
    expect(String(chat?.attributes["gen_ai.completion"])).toBe(ANSWER);
    // Uninstalled again: the global tracer is back to the no-op one.
    expect(context.active()).toBeDefined();
    expect(trace.getTracer("x").startSpan("after").isRecording()).toBe(false);
  });
});
