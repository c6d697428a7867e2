import { assertModelsConfigured, modelConfigStatus } from "../ai/config-status.ts";
import type { RoleOverrides } from "../ai/resolve.ts";
import type { Env } from "../env.ts";
import { assertSearchConfigured } from "../search/index.ts";

/**
 * Creating a run without usable models would only fail later; refuse it up front (409) with what to set.
 * `env` is the effective configuration (lib/server/settings/effective.ts) where the settings page counts.
 */
export function requireConfiguredModels(env: Env = process.env, overrides?: RoleOverrides): void {
  assertModelsConfigured(modelConfigStatus(env, { overrides }));
}

/**
 * Everything a run's worker will need from the configuration, checked before the run is created:
 * a model for every role (with the run's overrides) and the key or URL of every search provider it
 * names (or SEARCH_PROVIDERS). Throws 409 not_configured naming the variable to set.
 */
export function requireConfiguredRun(
  settings: { models?: RoleOverrides; searchProviders?: readonly string[] },
  env: Env = process.env,
): void {
  requireConfiguredModels(env, settings.models);
  assertSearchConfigured({ env, providers: settings.searchProviders });
}
