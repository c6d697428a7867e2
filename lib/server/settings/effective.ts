/**
 * What the web process reads instead of process.env wherever models, search or run limits are
 * concerned: the effective configuration (lib/jobs/effective-config.ts) of this process's database.
 */
import { overrideSource, resolveRole } from "../../ai/resolve.ts";
import { ROLES, type Role } from "../../ai/roles.ts";
import type { Env } from "../../env.ts";
import { type EffectiveConfig, effectiveConfig } from "../../jobs/effective-config.ts";
import type { Runtime } from "../../jobs/runtime.ts";
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
 * A new run's settings with the models chosen on the settings page written into them, so a run
 * keeps the models it was created with when the page changes later. Roles the run itself chose
 * (directly or through their fallback chain) are left as they are. With models on "use
 * environment" nothing is added: the worker's environment decides, as it always did.
 */
export function withModelSnapshot<S extends { models?: Partial<Record<Role, string>> }>(
  settings: S,
  config: Pick<EffectiveConfig, "env" | "modelsStored">,
): S {
  if (!config.modelsStored) return settings;
  const models: Partial<Record<Role, string>> = { ...settings.models };
  const fromRun = new Set(ROLES.map(overrideSource));
  for (const role of ROLES) {
    const r = resolveRole(role, { env: config.env, overrides: settings.models });
    if (r.ok && !fromRun.has(r.source)) models[role] = r.spec.id;
  }
  return { ...settings, models };
}
