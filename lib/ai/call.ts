import {
  APICallError,
  type FinishReason,
  generateText,
  type LanguageModelUsage,
  type ModelMessage,
  type StopCondition,
  streamText,
  type TelemetryOptions,
  type ToolChoice,
  type ToolSet,
  type TypedToolCall,
  type TypedToolResult,
} from "ai";
import { modelCallTelemetry } from "../telemetry/ai-spans.ts";
import { metrics, recordModelCall } from "../telemetry/metrics.ts";
import { withSpan } from "../telemetry/tracing.ts";
import { ContextWindowError, toContextWindowError } from "./context-errors.ts";
import { abortError, ModelCallError, ModelConfigError } from "./errors.ts";
import type { LanguageModelInstance } from "./providers.ts";
import type { ModelRegistry } from "./registry.ts";
import { isRetryableError, RetriesExhaustedError, withDeadline, withRetry } from "./retry.ts";
import type { Role } from "./roles.ts";
import type { ModelSpec } from "./spec.ts";
import { BudgetExceededError, type TokenUsage, toTokenUsage, type UsageMeter } from "./usage.ts";

/** What every call needs: where models come from, where usage goes, and the run's cancel signal. */
export type CallDeps = {
  registry: ModelRegistry;
  meter?: UsageMeter;
  signal?: AbortSignal;
  /** Told about each retry (the engine can log or emit an event). */
  onRetry?: (event: ModelRetryEvent) => void;
};

export type ModelRetryEvent = { role: Role; model: string; attempt: number; delayMs: number; error: unknown };

export type PromptInput =
  | { instructions?: string; prompt: string; messages?: never }
  | { instructions?: string; messages: ModelMessage[]; prompt?: never };

type ProviderOptions = NonNullable<Parameters<typeof generateText>[0]["providerOptions"]>;

export type GenerationOptions = {
  maxOutputTokens?: number;
  temperature?: number;
  providerOptions?: ProviderOptions;
  /** Cancels this call only (the deps signal cancels everything). */
  abortSignal?: AbortSignal;
  /** Overrides the registry's per-attempt timeout. */
  timeoutMs?: number;
  /** Skip the budget check, e.g. to write the partial report after the budget stopped the run. */
  ignoreBudget?: boolean;
};

export type TextCallOptions<TOOLS extends ToolSet = ToolSet> = PromptInput &
  GenerationOptions & {
    tools?: TOOLS;
    toolChoice?: ToolChoice<TOOLS>;
    /** Only meaningful with tools that have `execute`; default is a single step. */
    stopWhen?: StopCondition<TOOLS> | StopCondition<TOOLS>[];
    /**
     * Stream the answer: called with each text delta. A failed stream is retried only before
     * its first delta, so a consumer never sees text twice.
     */
    onTextDelta?: (delta: string) => void;
  };

export type TextCallResult<TOOLS extends ToolSet = ToolSet> = {
  text: string;
  toolCalls: TypedToolCall<TOOLS>[];
  toolResults: TypedToolResult<TOOLS>[];
  finishReason: FinishReason;
  /** The assistant/tool messages produced, ready to append to a conversation. */
  responseMessages: ModelMessage[];
  usage: TokenUsage;
  /** `provider:model-id` that answered. */
  model: string;
  attempts: number;
};

type Invocation = {
  model: LanguageModelInstance;
  signal: AbortSignal;
  /** Restart the inactivity timer (streams). */
  touch: () => void;
  /** The SDK's telemetry option for this attempt (spans under the model call's), or undefined. */
  telemetry?: TelemetryOptions;
};

function combine(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}

/** Errors that mean something specific to the caller pass through; the rest become ModelCallError. */
function finalError(
  error: unknown,
  role: Role,
  spec: ModelSpec,
  attempts: number,
  signal?: AbortSignal,
): unknown {
  if (signal?.aborted) return abortError(signal);
  if (
    error instanceof ContextWindowError ||
    error instanceof BudgetExceededError ||
    error instanceof ModelConfigError ||
    error instanceof ModelCallError
  ) {
    return error;
  }
  const exhausted = error instanceof RetriesExhaustedError;
  const cause = exhausted ? error.cause : error;
  if (
    !(cause instanceof Error) ||
    (!APICallError.isInstance(cause) && !exhausted && !isRetryableError(cause))
  ) {
    // Not a transport failure (e.g. an SDK parse error): the caller may handle it by type.
    return cause;
  }
  return new ModelCallError({
    role,
    model: spec.id,
    attempts,
    statusCode: APICallError.isInstance(cause) ? cause.statusCode : undefined,
    retryable: exhausted,
    cause,
  });
}

/**
 * The one path every model call takes: resolve the role, check the budget, then attempt under
 * the provider's concurrency limit with a deadline, retrying transient failures with backoff.
 * Context-window errors are typed and never retried. Usage of the successful call is recorded.
 */
export async function runModelCall<T>(
  deps: CallDeps,
  role: Role,
  opts: GenerationOptions & { canRetry?: () => boolean },
  invoke: (inv: Invocation) => Promise<T>,
  usageOf: (value: T) => LanguageModelUsage | undefined,
): Promise<{ value: T; spec: ModelSpec; attempts: number }> {
  const spec = deps.registry.spec(role);
  const tags = { role, model: spec.id, provider: spec.provider };
  return withSpan(
    `model ${role}`,
    { "deep_research.role": role, "gen_ai.request.model": spec.id, "gen_ai.system": spec.provider },
    async (span) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const done = await attemptModelCall(deps, role, spec, opts, invoke, usageOf);
        const { usage, costUsd } = done.recorded;
        span.setAttributes({
          "gen_ai.usage.input_tokens": usage.inputTokens,
          "gen_ai.usage.output_tokens": usage.outputTokens,
          "deep_research.cost_usd": costUsd,
          "deep_research.attempts": done.attempts,
        });
        recordModelCall({ ...tags, seconds: seconds(), outcome: "ok", tokens: usage, costUsd });
        return { value: done.value, spec, attempts: done.attempts };
      } catch (e) {
        // A budget refusal happens before any call: nothing was asked of the provider.
        if (!(e instanceof BudgetExceededError))
          recordModelCall({ ...tags, seconds: seconds(), outcome: "error", error: errorKind(e) });
        throw e;
      }
    },
  );
}

function errorKind(e: unknown): string {
  if (e instanceof ContextWindowError) return "context_window";
  if (e instanceof ModelConfigError) return "config";
  if (e instanceof ModelCallError) return "call";
  if (e instanceof Error && e.name === "AbortError") return "aborted";
  return "other";
}

async function attemptModelCall<T>(
  deps: CallDeps,
  role: Role,
  spec: ModelSpec,
  opts: GenerationOptions & { canRetry?: () => boolean },
  invoke: (inv: Invocation) => Promise<T>,
  usageOf: (value: T) => LanguageModelUsage | undefined,
) {
  const { registry, meter } = deps;
  const model = registry.model(role);
  const signal = combine(deps.signal, opts.abortSignal);
  if (signal?.aborted) throw abortError(signal);
  if (!opts.ignoreBudget) meter?.assertWithinBudget(role);
  const limiter = registry.limiter(spec.provider);
  const timeoutMs = opts.timeoutMs ?? registry.settings.timeoutMs;
  let attempts = 0;
  try {
    const value = await withRetry(
      (attempt) => {
        attempts = attempt;
        return limiter.run(
          () =>
            withDeadline(
              async ({ signal: callSignal, touch }) => {
                try {
                  const telemetry = modelCallTelemetry({ role, model: spec.id, provider: spec.provider });
                  return await invoke({ model, signal: callSignal, touch, telemetry });
                } catch (e) {
                  throw toContextWindowError(e, { role, model: spec.id }) ?? e;
                }
              },
              { timeoutMs, signal },
            ),
          signal,
        );
      },
      {
        ...registry.settings.retry,
        signal,
        sleep: registry.sleep,
        random: registry.random,
        isRetryable: (e) =>
          !(e instanceof ContextWindowError) && (opts.canRetry?.() ?? true) && isRetryableError(e),
        onRetry: (r) => {
          metrics().modelRetries.inc({ provider: spec.provider, role });
          deps.onRetry?.({ role, model: spec.id, ...r });
        },
      },
    );
    const usage = toTokenUsage(usageOf(value));
    const recorded = meter?.record(role, spec, usage) ?? { usage, costUsd: 0 };
    return { value, attempts, recorded };
  } catch (e) {
    throw finalError(e, role, spec, attempts, signal);
  }
}

// The SDK's option object is a union over prompt/messages; we build it from our own narrower type.
type GenerateArgs<TOOLS extends ToolSet> = Parameters<typeof generateText<TOOLS>>[0];
type StreamArgs<TOOLS extends ToolSet> = Parameters<typeof streamText<TOOLS>>[0];

export function sdkArgs<TOOLS extends ToolSet>(opts: TextCallOptions<TOOLS>, inv: Invocation) {
  return {
    model: inv.model,
    instructions: opts.instructions,
    ...(opts.messages ? { messages: opts.messages } : { prompt: opts.prompt as string }),
    tools: opts.tools,
    toolChoice: opts.toolChoice,
    stopWhen: opts.stopWhen,
    maxOutputTokens: opts.maxOutputTokens,
    temperature: opts.temperature,
    providerOptions: opts.providerOptions,
    // Our retry layer is the only one: it honours Retry-After, the limiter and the budget.
    maxRetries: 0,
    abortSignal: inv.signal,
    telemetry: inv.telemetry,
  };
}

/**
 * Call a role for text (optionally with tools, optionally streamed). Throws ContextWindowError,
 * BudgetExceededError, ModelConfigError, ModelCallError, or the abort reason.
 */
export async function callText<TOOLS extends ToolSet = ToolSet>(
  deps: CallDeps,
  role: Role,
  opts: TextCallOptions<TOOLS>,
): Promise<TextCallResult<TOOLS>> {
  const onDelta = opts.onTextDelta;
  let streamed = false;
  const { value, spec, attempts } = await runModelCall(
    deps,
    role,
    { ...opts, canRetry: () => !streamed },
    async (inv) => {
      if (!onDelta) {
        const r = await generateText(sdkArgs(opts, inv) as GenerateArgs<TOOLS>);
        return {
          text: r.text,
          toolCalls: r.toolCalls,
          toolResults: r.toolResults,
          finishReason: r.finishReason,
          responseMessages: r.responseMessages as ModelMessage[],
          usage: r.usage,
        };
      }
      const r = streamText({
        ...(sdkArgs(opts, inv) as StreamArgs<TOOLS>),
        // Errors arrive as stream parts and are thrown below; the default handler would only log them.
        onError: () => {},
      });
      for await (const part of r.fullStream) {
        inv.touch();
        if (part.type === "text-delta") {
          streamed = true;
          onDelta(part.text);
        } else if (part.type === "error") {
          throw part.error;
        } else if (part.type === "abort") {
          throw abortError(inv.signal);
        }
      }
      const [text, toolCalls, toolResults, finishReason, responseMessages, usage] = await Promise.all([
        r.text,
        r.toolCalls,
        r.toolResults,
        r.finishReason,
        r.responseMessages,
        r.usage,
      ]);
      return {
        text,
        toolCalls,
        toolResults,
        finishReason,
        responseMessages: responseMessages as ModelMessage[],
        usage,
      };
    },
    (v) => v.usage,
  );
  return { ...value, usage: toTokenUsage(value.usage), model: spec.id, attempts };
}
