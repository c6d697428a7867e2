/**
 * The one path every model call takes: the role's chain of models, each tried under its provider's
 * circuit breaker and concurrency limit, with a deadline per attempt, retries with backoff for
 * transient failures, a plainer request mode when a local server refuses a feature, and the next
 * model of the chain when a failure is one it may not share (failover.ts).
 */
import { APICallError, type generateText, type LanguageModelUsage, type TelemetryOptions } from "ai";
import { modelCallTelemetry } from "../telemetry/ai-spans.ts";
import { log } from "../telemetry/log.ts";
import { metrics, recordModelCall } from "../telemetry/metrics.ts";
import { withSpan } from "../telemetry/tracing.ts";
import { ContextWindowError, toContextWindowError } from "./context-errors.ts";
import { abortError, ModelCallError, ModelConfigError } from "./errors.ts";
import { type FailoverReason, failoverFor } from "./failover.ts";
import { type LackingFeature, type LocalModes, lackingFeature } from "./local-modes.ts";
import type { LanguageModelInstance } from "./providers.ts";
import type { ModelRegistry } from "./registry.ts";
import { isRetryableError, RetriesExhaustedError, withDeadline, withRetry } from "./retry.ts";
import type { Role } from "./roles.ts";
import type { ModelSpec } from "./spec.ts";
import { BudgetExceededError, toTokenUsage, type UsageMeter } from "./usage.ts";

/** What every call needs: where models come from, where usage goes, and the run's cancel signal. */
export type CallDeps = {
  registry: ModelRegistry;
  meter?: UsageMeter;
  signal?: AbortSignal;
  /** Told about each retry (the engine can log or emit an event). */
  onRetry?: (event: ModelRetryEvent) => void;
  /** Told about each switch to the next model of a role's chain. */
  onFailover?: (event: ModelFailoverEvent) => void;
};

export type ModelRetryEvent = { role: Role; model: string; attempt: number; delayMs: number; error: unknown };
export type ModelFailoverEvent = {
  role: Role;
  from: string;
  to: string;
  reason: FailoverReason;
  detail: string;
};

export type PromptInput =
  | { instructions?: string; prompt: string; messages?: never }
  | { instructions?: string; messages: import("ai").ModelMessage[]; prompt?: never };

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

export type CallOptions = GenerationOptions & {
  /** False once retrying or switching models would repeat what a consumer already saw (a stream). */
  canRetry?: () => boolean;
  /** The features the request uses, so a local server's refusal of one is recognised. */
  uses?: { structured?: boolean; tools?: boolean };
};

export type Invocation = {
  model: LanguageModelInstance;
  signal: AbortSignal;
  /** Restart the inactivity timer (streams). */
  touch: () => void;
  /** The SDK's telemetry option for this attempt (spans under the model call's), or undefined. */
  telemetry?: TelemetryOptions;
  /** How to ask this model: natively, or in the plainer modes its server was found to need. */
  modes: LocalModes;
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

// Breaker skips already announced to a caller (a run): one event per switch, not one per call.
const announcedPauses = new WeakMap<CallDeps, Set<string>>();

function announce(deps: CallDeps, event: ModelFailoverEvent): void {
  if (event.reason === "paused") {
    const announced = announcedPauses.get(deps) ?? new Set<string>();
    announcedPauses.set(deps, announced);
    const key = `${event.role} ${event.from} ${event.to}`;
    if (announced.has(key)) return;
    announced.add(key);
  }
  deps.onFailover?.(event);
}

function pausedDetail(registry: ModelRegistry, spec: ModelSpec): string {
  const until = registry.breaker(spec.provider).retryAt;
  const when = until ? `; it is tried again after ${new Date(until).toISOString()}` : "";
  return `${spec.provider} failed repeatedly${when}`;
}

/**
 * Calls the role's chain: each model in turn until one answers or a failure is not one the next
 * model may not share. Usage of each answered call is recorded for the model that answered.
 */
export async function runModelCall<T>(
  deps: CallDeps,
  role: Role,
  opts: CallOptions,
  invoke: (inv: Invocation) => Promise<T>,
  usageOf: (value: T) => LanguageModelUsage | undefined,
): Promise<{ value: T; spec: ModelSpec; attempts: number }> {
  const chain = deps.registry.chain(role);
  const primary = chain[0];
  return withSpan(
    `model ${role}`,
    { "deep_research.role": role, "gen_ai.request.model": primary.id, "gen_ai.system": primary.provider },
    async (span) => {
      // Switches waiting for the model they go to: the next one actually tried.
      let switches: Omit<ModelFailoverEvent, "to">[] = [];
      for (const [i, spec] of chain.entries()) {
        const next = chain[i + 1];
        // An open breaker sends calls on to the next model; the last is tried whatever its state
        // (a breaker steers calls elsewhere, it never refuses the last way to answer).
        if (next && !deps.registry.breaker(spec.provider).allow()) {
          switches.push({ role, from: spec.id, reason: "paused", detail: pausedDetail(deps.registry, spec) });
          continue;
        }
        for (const s of switches) announce(deps, { ...s, to: spec.id });
        switches = [];
        const tags = { role, model: spec.id, provider: spec.provider };
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        try {
          const done = await attemptModelCall(deps, role, spec, opts, invoke, usageOf);
          deps.registry.breaker(spec.provider).success();
          const { usage, costUsd } = done.recorded;
          span.setAttributes({
            "gen_ai.response.model": spec.id,
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
          const failover = failoverFor(e);
          if (failover?.providerWide) deps.registry.breaker(spec.provider).failure();
          if (!failover || !next || !(opts.canRetry?.() ?? true)) throw e;
          switches.push({ role, from: spec.id, reason: failover.reason, detail: failover.detail });
        }
      }
      throw new Error("unreachable: the chain has at least one model");
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

/** The usage an error carries for the answer it rejects (a failed call that was paid for). */
function usageOfError(e: unknown): LanguageModelUsage | undefined {
  const usage = (e as { usage?: unknown } | null)?.usage;
  if (!usage || typeof usage !== "object") return undefined;
  const u = usage as LanguageModelUsage;
  return (u.inputTokens ?? 0) + (u.outputTokens ?? 0) > 0 ? u : undefined;
}

/**
 * Invokes the model once; when an `openai-compatible:` server refuses a feature the request used,
 * remembers that for the model and invokes it again in the plainer mode (not a retry: nothing
 * transient happened). Other errors go to the retry loop, context-window ones typed.
 */
async function invokeInModes<T>(
  deps: CallDeps,
  role: Role,
  spec: ModelSpec,
  opts: CallOptions,
  invoke: (inv: Invocation) => Promise<T>,
  inv: Omit<Invocation, "modes">,
): Promise<T> {
  for (;;) {
    const modes = deps.registry.localModes(spec);
    try {
      return await invoke({ ...inv, modes });
    } catch (e) {
      const lacking: LackingFeature | undefined =
        spec.provider === "openai-compatible"
          ? lackingFeature(e, {
              structured: Boolean(opts.uses?.structured) && modes.structured !== "prompt",
              tools: Boolean(opts.uses?.tools) && modes.tools === "native",
            })
          : undefined;
      const next = lacking ? deps.registry.downgrade(spec, lacking, modes) : undefined;
      if (!next) throw toContextWindowError(e, { role, model: spec.id }) ?? e;
      log("ai").warn(
        { model: spec.id, refused: lacking, modes: next },
        "the model's server refused a request feature; asking it in a plainer mode from now on",
      );
    }
  }
}

async function attemptModelCall<T>(
  deps: CallDeps,
  role: Role,
  spec: ModelSpec,
  opts: CallOptions,
  invoke: (inv: Invocation) => Promise<T>,
  usageOf: (value: T) => LanguageModelUsage | undefined,
) {
  const { registry, meter } = deps;
  const model = registry.modelFor(spec);
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
              ({ signal: callSignal, touch }) => {
                const telemetry = modelCallTelemetry({ role, model: spec.id, provider: spec.provider });
                return invokeInModes(deps, role, spec, opts, invoke, {
                  model,
                  signal: callSignal,
                  touch,
                  telemetry,
                });
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
    const paid = usageOfError(e instanceof RetriesExhaustedError ? e.cause : e);
    if (paid) meter?.record(role, spec, toTokenUsage(paid));
    throw finalError(e, role, spec, attempts, signal);
  }
}
