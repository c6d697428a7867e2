import { ModelConfigError } from "./errors.ts";
import { type Env, envValue, missingProviderConfig } from "./providers.ts";
import { chainVariables, DEFAULT_MODEL_VARIABLE, FALLBACK_CHAIN, type Role, roleVariable } from "./roles.ts";
import { BUILTIN_PROVIDERS, type BuiltinProvider, type ModelSpec, parseModelSpec } from "./spec.ts";

/** Per-run model choices (run settings), consulted before the environment at every chain link. */
export type RoleOverrides = Partial<Record<Role, string>>;

export type RoleResolution =
  | { role: Role; ok: true; spec: ModelSpec; source: string }
  | { role: Role; ok: false; spec?: ModelSpec; source?: string; problem: string };

export type ResolveContext = {
  env: Env;
  overrides?: RoleOverrides;
  /** Provider names backed by an injected factory: accepted in specs, no credentials checked. */
  customProviders?: readonly string[];
};

export function overrideSource(role: Role): string {
  return `run setting models.${role}`;
}

/**
 * Walk the role's fallback chain and take the first value set. A malformed value is reported,
 * not skipped: falling through to MODEL would hide the typo behind a different model.
 */
export function resolveRole(role: Role, ctx: ResolveContext): RoleResolution {
  let value: string | undefined;
  let source: string | undefined;
  for (const link of FALLBACK_CHAIN[role]) {
    const fromRun = ctx.overrides?.[link]?.trim();
    if (fromRun) {
      value = fromRun;
      source = overrideSource(link);
      break;
    }
    const fromEnv = envValue(ctx.env, roleVariable(link));
    if (fromEnv) {
      value = fromEnv;
      source = roleVariable(link);
      break;
    }
  }
  if (value === undefined) {
    value = envValue(ctx.env, DEFAULT_MODEL_VARIABLE);
    source = DEFAULT_MODEL_VARIABLE;
  }
  if (value === undefined || source === undefined) {
    return {
      role,
      ok: false,
      problem:
        `no model configured for ${role}: set ${chainVariables(role).join(" or ")} as provider:model-id ` +
        "(e.g. MODEL=openai-compatible:llama3.1 with OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1)",
    };
  }
  const custom = ctx.customProviders ?? [];
  let spec: ModelSpec;
  try {
    spec = parseModelSpec(value, { variable: source, providers: [...BUILTIN_PROVIDERS, ...custom] });
  } catch (e) {
    return { role, ok: false, source, problem: e instanceof Error ? e.message : String(e) };
  }
  if (!custom.includes(spec.provider)) {
    const missing = missingProviderConfig(spec.provider as BuiltinProvider, ctx.env);
    if (missing) return { role, ok: false, spec, source, problem: `${source}=${spec.id}: ${missing}` };
  }
  return { role, ok: true, spec, source };
}

export function resolutionError(r: Extract<RoleResolution, { ok: false }>): ModelConfigError {
  return new ModelConfigError(r.problem, { variable: r.source ?? DEFAULT_MODEL_VARIABLE });
}
