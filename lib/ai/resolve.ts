import { ModelConfigError } from "./errors.ts";
import { type Env, envValue, missingProviderConfig } from "./providers.ts";
import { chainVariables, DEFAULT_MODEL_VARIABLE, FALLBACK_CHAIN, type Role, roleVariable } from "./roles.ts";
import { BUILTIN_PROVIDERS, type BuiltinProvider, type ModelSpec, parseModelChain } from "./spec.ts";

/**
 * Per-run model choices (run settings), consulted before the environment at every chain link.
 * Each value is a model or a comma-separated chain of models.
 */
export type RoleOverrides = Partial<Record<Role, string>>;

/** A chain member left out because its provider is not configured here (a warning, not an error). */
export type SkippedModel = { model: string; problem: string };

export type RoleResolution =
  | {
      role: Role;
      ok: true;
      /** The first usable model: where every call starts. */
      spec: ModelSpec;
      /** The usable models in order: a call that fails for a reason the next may not share goes on. */
      chain: ModelSpec[];
      skipped: SkippedModel[];
      source: string;
    }
  | {
      role: Role;
      ok: false;
      spec?: ModelSpec;
      chain?: ModelSpec[];
      skipped?: SkippedModel[];
      source?: string;
      problem: string;
    };

export type ResolveContext = {
  env: Env;
  overrides?: RoleOverrides;
  /** Provider names backed by an injected factory: accepted in specs, no credentials checked. */
  customProviders?: readonly string[];
};

export function overrideSource(role: Role): string {
  return `run setting models.${role}`;
}

/** The first value set along the role's fallback links (run settings before the environment), then MODEL. */
function chainValue(role: Role, ctx: ResolveContext): { value?: string; source: string } {
  for (const link of FALLBACK_CHAIN[role]) {
    const fromRun = ctx.overrides?.[link]?.trim();
    if (fromRun) return { value: fromRun, source: overrideSource(link) };
    const fromEnv = envValue(ctx.env, roleVariable(link));
    if (fromEnv) return { value: fromEnv, source: roleVariable(link) };
  }
  return { value: envValue(ctx.env, DEFAULT_MODEL_VARIABLE), source: DEFAULT_MODEL_VARIABLE };
}

/**
 * Walk the role's fallback links and take the first value set: one model or a chain of them.
 * A malformed value is reported, not skipped: falling through to MODEL would hide the typo behind
 * a different model. A member whose provider has no key or URL here is skipped with a warning;
 * a chain with no usable member is unusable.
 */
export function resolveRole(role: Role, ctx: ResolveContext): RoleResolution {
  const { value, source } = chainValue(role, ctx);
  if (value === undefined) {
    return {
      role,
      ok: false,
      problem:
        `no model configured for ${role}: set ${chainVariables(role).join(" or ")} as provider:model-id ` +
        "(e.g. MODEL=openai-compatible:llama3.1 with OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1)",
    };
  }
  const custom = ctx.customProviders ?? [];
  let members: ModelSpec[];
  try {
    members = parseModelChain(value, { variable: source, providers: [...BUILTIN_PROVIDERS, ...custom] });
  } catch (e) {
    return { role, ok: false, source, problem: e instanceof Error ? e.message : String(e) };
  }
  const chain: ModelSpec[] = [];
  const skipped: SkippedModel[] = [];
  for (const spec of members) {
    const missing = custom.includes(spec.provider)
      ? undefined
      : missingProviderConfig(spec.provider as BuiltinProvider, ctx.env);
    if (missing) skipped.push({ model: spec.id, problem: `${source}=${spec.id}: ${missing}` });
    else chain.push(spec);
  }
  if (!chain.length) {
    const problem =
      skipped.length === 1
        ? skipped[0].problem
        : `${source} names no usable model: ${skipped.map((s) => s.problem).join("; ")}`;
    return { role, ok: false, spec: members[0], chain: [], skipped, source, problem };
  }
  return { role, ok: true, spec: chain[0], chain, skipped, source };
}

export function resolutionError(r: Extract<RoleResolution, { ok: false }>): ModelConfigError {
  return new ModelConfigError(r.problem, { variable: r.source ?? DEFAULT_MODEL_VARIABLE });
}
