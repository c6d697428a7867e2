/**
 * What the web process reads instead of process.env wherever models, search or run limits are
 * concerned: the effective configuration (lib/jobs/settings/effective-config.ts) of this process's database.
 */
import { overrideSource, resolveRole } from "../../ai/resolve.ts";
import { ROLES, type Role } from "../../ai/roles.ts";
import { chainText } from "../../ai/spec.ts";
import type { Env } from "../../env.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { type EffectiveConfig, effectiveConfig } from "../../jobs/settings/effective-config.ts";
import { serverRuntime } from "../runtime.ts";

export async function serverEffectiveConfig(rt?: Runtime): Promise<EffectiveConfig> {
  const runtime = rt ?? (await serverRuntime());
  return effectiveConfig(runtime.handle.db, process.env);
}

/** The environment as the admin's settings change it. */
export async function serverEffectiveEnv(rt?: Runtime): Promise<Env> {
  return (await serverEffectiveConfig(rt)).env;
}

/**
 * A new run's settings with the chain of models each role gets written into them, so a run keeps the
 * models it was created with when the settings page or the environment changes later. A role the
 * run chose itself stores its usable models; a role following another role the run chose is left to
 * follow it. Members whose provider is not configured are left out, each with a warning.
 */
export function withModelChains<S extends { models?: Partial<Record<Role, string>> }>(
  settings: S,
  config: Pick<EffectiveConfig, "env">,
): { settings: S; warnings: string[] } {
  const models: Partial<Record<Role, string>> = { ...settings.models };
  // One warning per member left out, naming the roles it was left out of.
  const leftOut = new Map<string, Role[]>();
  for (const role of ROLES) {
    const r = resolveRole(role, { env: config.env, overrides: settings.models });
    // Unusable: creating the run is refused (requireConfiguredRun), nothing to store.
    if (!r.ok) continue;
    for (const s of r.skipped) leftOut.set(s.problem, [...(leftOut.get(s.problem) ?? []), role]);
    const followsTheRun = r.source.startsWith("run setting") && r.source !== overrideSource(role);
    if (!followsTheRun) models[role] = chainText(r.chain);
  }
  const warnings = [...leftOut].map(([problem, roles]) => `${problem} (left out for ${roles.join(", ")})`);
  return { settings: { ...settings, models }, warnings };
}
