/**
 * The AI SDK's telemetry (ai 7: `telemetry: { isEnabled, recordInputs, recordOutputs, functionId,
 * integrations }`) turned into OpenTelemetry spans. ai 7 emits lifecycle events rather than spans,
 * so this integration opens a span per generation (`ai.generateText` / `ai.streamText`) and one
 * per provider call inside it (`gen_ai.chat`), with the gen_ai.* semantic attributes. Prompts and
 * answers are recorded only when the call's options allow it (OTEL_RECORD_CONTENT=true).
 */
import { type Context, context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import type { LanguageModelUsage, Telemetry, TelemetryOptions } from "ai";
import { recordContent, tracer, tracingActive } from "./tracing.ts";

export type ModelCallTags = { role: string; model: string; provider: string };

function usageAttributes(u: LanguageModelUsage | undefined) {
  return {
    "gen_ai.usage.input_tokens": u?.inputTokens ?? 0,
    "gen_ai.usage.output_tokens": u?.outputTokens ?? 0,
  };
}

function clip(text: string, max = 8000): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One integration per generation: it holds that generation's spans and nothing else. */
function spanIntegration(tags: ModelCallTags, parent: Context): Telemetry {
  let generation: Span | undefined;
  const calls = new Map<string, Span>();
  const base = {
    "deep_research.role": tags.role,
    "gen_ai.system": tags.provider,
    "gen_ai.request.model": tags.model,
  };
  const finishAll = (error?: unknown) => {
    for (const span of calls.values()) span.end();
    calls.clear();
    if (generation && error !== undefined) {
      generation.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
    }
    generation?.end();
    generation = undefined;
  };
  return {
    onStart(event) {
      const name = "operationId" in event ? String(event.operationId) : "ai.generate";
      generation = tracer().startSpan(name, { attributes: { ...base, "ai.operationId": name } }, parent);
      if (event.recordInputs && "messages" in event) {
        generation.setAttribute("ai.prompt.messages", clip(JSON.stringify(event.messages)));
      }
    },
    onLanguageModelCallStart(event) {
      const ctx = generation ? trace.setSpan(parent, generation) : parent;
      const span = tracer().startSpan("gen_ai.chat", { attributes: { ...base } }, ctx);
      if (event.recordInputs) span.setAttribute("gen_ai.prompt", clip(JSON.stringify(event.messages)));
      calls.set(event.callId, span);
    },
    onLanguageModelCallEnd(event) {
      const span = calls.get(event.callId);
      if (!span) return;
      span.setAttributes({
        ...usageAttributes(event.usage),
        "gen_ai.response.model": event.modelId,
        "gen_ai.response.finish_reasons": [event.finishReason],
      });
      if (event.recordOutputs) {
        const text = event.content.map((p) => (p.type === "text" ? p.text : "")).join("");
        span.setAttribute("gen_ai.completion", clip(text));
      }
      span.end();
      calls.delete(event.callId);
    },
    onEnd(event) {
      if (generation && "totalUsage" in event) {
        generation.setAttributes(usageAttributes(event.totalUsage as LanguageModelUsage));
      }
      if (generation && event.recordOutputs && "text" in event && typeof event.text === "string") {
        generation.setAttribute("ai.response.text", clip(event.text));
      }
      finishAll();
    },
    onAbort() {
      finishAll("aborted");
    },
    onError(error) {
      finishAll(error instanceof Error ? error.message : error);
    },
  };
}

/**
 * The `telemetry` option for one SDK call, or undefined when nothing records spans (no SDK and no
 * test provider): then the SDK does no telemetry work at all.
 */
export function modelCallTelemetry(tags: ModelCallTags): TelemetryOptions | undefined {
  if (!tracingActive()) return undefined;
  const content = recordContent();
  return {
    isEnabled: true,
    recordInputs: content,
    recordOutputs: content,
    functionId: `deep-research.${tags.role}`,
    integrations: [spanIntegration(tags, context.active())],
  };
}
