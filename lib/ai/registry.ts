import {
  type BreakerPolicy,
  type CircuitBreaker,
  createCircuitBreaker,
  DEFAULT_BREAKER_POLICY,
} from "./circuit-breaker.ts";
import { type ModelConfigStatus, statusFromResolutions } from "./config-status.ts";
import { ModelConfigError } from "./errors.ts";
import { downgrade, type LackingFeature, type LocalModes, NATIVE_MODES } from "./local-modes.ts";
import { loadPricing, type PricingTable } from "./pricing.ts";
import {
  builtinProviderFactory,
  type Env,
  envValue,
  type LanguageModelInstance,
  type ProviderFactories,
  type ProviderFactory,
} from "./providers.ts";
import { type RoleOverrides, type RoleResolution, resolutionError, resolveRole } from "./resolve.ts";
import {
  createLimiter,
  DEFAULT_RETRY_POLICY,
  type Limiter,
  type RetryPolicy,
  type Sleep,
  sleep,
} from "./retry.ts";
import { ROLES, type Role } from "./roles.ts";
import type { BuiltinProvider, ModelSpec } from "./spec.ts";

export type CallSettings = {
  /** Per attempt; for streamed calls, the longest silence between chunks. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** Concurrent calls per provider (shared by all runs using this registry and its overrides). */
  maxConcurrency: number;
  /** When a provider's circuit breaker opens, and for how long. */
  breaker: BreakerPolicy;
};

export const DEFAULT_CALL_SETTINGS: CallSettings = {
  timeoutMs: 300_000,
  retry: DEFAULT_RETRY_POLICY,
  maxConcurrency: 8,
  breaker: DEFAULT_BREAKER_POLICY,
};

function intVar(env: Env, name: string, fallback: number, min: number): number {
  const raw = envValue(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new ModelConfigError(`${name}=${JSON.stringify(raw)} must be an integer ≥ ${min}.`, {
      variable: name,
    });
  }
  return n;
}

/**
 * MODEL_TIMEOUT_MS (300000), MODEL_MAX_RETRIES (4 retries = 5 attempts), MODEL_MAX_CONCURRENCY (8),
 * MODEL_BREAKER_FAILURES (5 provider failures in a row open its breaker), MODEL_BREAKER_COOLDOWN_MS
 * (60000 before a trial call).
 */
export function readCallSettings(env: Env): CallSettings {
  const breaker = DEFAULT_CALL_SETTINGS.breaker;
  return {
    timeoutMs: intVar(env, "MODEL_TIMEOUT_MS", DEFAULT_CALL_SETTINGS.timeoutMs, 1),
    retry: {
      ...DEFAULT_RETRY_POLICY,
      maxAttempts: intVar(env, "MODEL_MAX_RETRIES", DEFAULT_RETRY_POLICY.maxAttempts - 1, 0) + 1,
    },
    maxConcurrency: intVar(env, "MODEL_MAX_CONCURRENCY", DEFAULT_CALL_SETTINGS.maxConcurrency, 1),
    breaker: {
      failureThreshold: intVar(env, "MODEL_BREAKER_FAILURES", breaker.failureThreshold, 1),
      cooldownMs: intVar(env, "MODEL_BREAKER_COOLDOWN_MS", breaker.cooldownMs, 0),
    },
  };
}

export type ModelRegistryOptions = {
  /** Configuration source; read when the registry is created, never at import. */
  env?: Env;
  /** Per-run model choices by role, e.g. `{ researcher: "openai:gpt-4.1-mini" }`. */
  overrides?: RoleOverrides;
  /**
   * Model factories by provider name. Replaces a built-in provider (no credentials checked)
   * or adds a new name usable in specs, e.g. `{ test: (id) => mockModels[id] }` with MODEL=test:a.
   */
  providerFactories?: ProviderFactories;
  /** Defaults from the env (readCallSettings); these win. */
  settings?: Partial<Omit<CallSettings, "retry" | "breaker">> & {
    retry?: Partial<RetryPolicy>;
    breaker?: Partial<BreakerPolicy>;
  };
  /** Defaults to DEFAULT_PRICING merged with MODEL_PRICING. */
  pricing?: PricingTable;
  /** Injected for tests: the wait between retries, and the jitter source. */
  sleep?: Sleep;
  random?: () => number;
  /** The circuit breakers' clock (ms). */
  now?: () => number;
};

export type ModelRegistry = {
  readonly settings: CallSettings;
  readonly pricing: PricingTable;
  readonly sleep: Sleep;
  readonly random: () => number;
  /** Where the role's model comes from, or why it is unusable. Never throws. */
  resolve(role: Role): RoleResolution;
  /** The role's first usable model; throws ModelConfigError (409 not_configured) when unusable. */
  spec(role: Role): ModelSpec;
  /** The role's usable models in the order calls try them; throws ModelConfigError when none is. */
  chain(role: Role): ModelSpec[];
  /** The role's first model instance (cached per spec); throws ModelConfigError when unusable. */
  model(role: Role): LanguageModelInstance;
  /** The model instance for a spec of a resolved chain (cached per spec). */
  modelFor(spec: ModelSpec): LanguageModelInstance;
  status(): ModelConfigStatus;
  /** The concurrency limiter for a provider name. */
  limiter(provider: string): Limiter;
  /** The provider's circuit breaker (one per provider for every run of this registry). */
  breaker(provider: string): CircuitBreaker;
  /** The request modes a model is called in (plainer ones once its server refused a feature). */
  localModes(spec: ModelSpec): LocalModes;
  /**
   * Remembers that the model's server refused `feature` of a request made in the modes `asked`; the
   * modes to ask in now, or undefined when there is no plainer one left.
   */
  downgrade(spec: ModelSpec, feature: LackingFeature, asked: LocalModes): LocalModes | undefined;
  /** A registry for one run: these overrides on top of this registry's, sharing limiters and caches. */
  withOverrides(overrides: RoleOverrides | undefined): ModelRegistry;
};

type Shared = {
  env: Env;
  settings: CallSettings;
  pricing: PricingTable;
  custom: ProviderFactories;
  factories: Map<string, ProviderFactory>;
  models: Map<string, LanguageModelInstance>;
  limiters: Map<string, Limiter>;
  breakers: Map<string, CircuitBreaker>;
  modes: Map<string, LocalModes>;
  sleep: Sleep;
  random: () => number;
  now: () => number;
};

export function createModelRegistry(opts: ModelRegistryOptions = {}): ModelRegistry {
  const env = opts.env ?? process.env;
  const fromEnv = readCallSettings(env);
  const settings: CallSettings = {
    timeoutMs: opts.settings?.timeoutMs ?? fromEnv.timeoutMs,
    maxConcurrency: opts.settings?.maxConcurrency ?? fromEnv.maxConcurrency,
    retry: { ...fromEnv.retry, ...opts.settings?.retry },
    breaker: { ...fromEnv.breaker, ...opts.settings?.breaker },
  };
  const shared: Shared = {
    env,
    settings,
    pricing: opts.pricing ?? loadPricing(env),
    custom: { ...opts.providerFactories },
    factories: new Map(),
    models: new Map(),
    limiters: new Map(),
    breakers: new Map(),
    modes: new Map(),
    sleep: opts.sleep ?? sleep,
    random: opts.random ?? Math.random,
    now: opts.now ?? Date.now,
  };
  return build(shared, { ...opts.overrides });
}

function build(shared: Shared, overrides: RoleOverrides): ModelRegistry {
  const customProviders = Object.keys(shared.custom);
  const resolve = (role: Role) => resolveRole(role, { env: shared.env, overrides, customProviders });

  const chain = (role: Role): ModelSpec[] => {
    const r = resolve(role);
    if (!r.ok) throw resolutionError(r);
    return r.chain;
  };

  const factoryFor = (provider: string): ProviderFactory => {
    let f = shared.factories.get(provider);
    if (!f) {
      f = shared.custom[provider] ?? builtinProviderFactory(provider as BuiltinProvider, shared.env);
      shared.factories.set(provider, f);
    }
    return f;
  };

  const registry: ModelRegistry = {
    settings: shared.settings,
    pricing: shared.pricing,
    sleep: shared.sleep,
    random: shared.random,
    resolve,
    spec: (role) => chain(role)[0],
    chain,
    model: (role) => registry.modelFor(chain(role)[0]),
    modelFor(s) {
      let m = shared.models.get(s.id);
      if (!m) {
        m = factoryFor(s.provider)(s.modelId);
        shared.models.set(s.id, m);
      }
      return m;
    },
    status: () => statusFromResolutions(ROLES.map(resolve)),
    limiter(provider) {
      let l = shared.limiters.get(provider);
      if (!l) {
        l = createLimiter(shared.settings.maxConcurrency);
        shared.limiters.set(provider, l);
      }
      return l;
    },
    breaker(provider) {
      let b = shared.breakers.get(provider);
      if (!b) {
        b = createCircuitBreaker(shared.settings.breaker, shared.now);
        shared.breakers.set(provider, b);
      }
      return b;
    },
    localModes: (s) => shared.modes.get(s.id) ?? NATIVE_MODES,
    downgrade(s, feature, asked) {
      const current = registry.localModes(s);
      // Another call already stepped down from the modes this one was refused in: use those.
      if (current.structured !== asked.structured || current.tools !== asked.tools) return current;
      const next = downgrade(current, feature);
      if (next) shared.modes.set(s.id, next);
      return next;
    },
    withOverrides: (more) => build(shared, { ...overrides, ...more }),
  };
  return registry;
}
