/**
 * Turns a validated PUT body into the stored shape: new keys sealed (AES-256-GCM under AUTH_SECRET,
 * lib/secrets.ts), an empty key field keeps the stored key, `clear` removes it. Then checks that an
 * area set here can work as a whole (a default model for every role, search providers with their
 * keys), so a broken configuration is refused before it is saved, and that a provider's new base
 * URL comes with its key typed again, from a signed-in admin: a saved key is never sent to an
 * address it was not saved for, nor redirected by a leaked API token.
 */
import { FALLBACK_CHAIN, ROLES } from "../../ai/roles.ts";
import { AppError } from "../../errors.ts";
import { assertSearchConfigured } from "../../search/index.ts";
import { encryptSecret } from "../../secrets.ts";
import type { KeyInput, SettingsInput } from "./input.ts";
import {
  keyedSearchProviders,
  modelProviders,
  providerLabels,
  type SealedKey,
  type StoredProviders,
  type StoredSearch,
  type StoredSettings,
} from "./schema.ts";

function mergeKey(stored: SealedKey | undefined, input: KeyInput, authSecret: string): SealedKey | undefined {
  if (input?.clear) return undefined;
  const value = input?.value?.trim();
  if (!value) return stored;
  return { sealed: encryptSecret(value, authSecret, "settings"), last4: value.slice(-4) };
}

export function mergeSettings(
  before: StoredSettings,
  input: SettingsInput,
  authSecret: string,
): StoredSettings {
  const after: StoredSettings = { ...before };
  if (input.models) {
    after.models = { useEnvironment: input.models.useEnvironment, roles: {} };
    if (input.models.model) after.models.model = input.models.model;
    for (const role of ROLES) {
      const spec = input.models.roles[role];
      if (spec) after.models.roles[role] = spec;
    }
  }
  if (input.providers) {
    const providers: StoredProviders = { ...before.providers };
    for (const name of modelProviders) {
      const p = input.providers[name];
      if (!p) continue;
      const key = mergeKey(before.providers?.[name]?.key, p.key, authSecret);
      providers[name] = {
        useEnvironment: p.useEnvironment,
        ...(key ? { key } : {}),
        ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}),
      };
    }
    after.providers = providers;
  }
  if (input.search) {
    const keys: StoredSearch["keys"] = {};
    for (const name of keyedSearchProviders) {
      const key = mergeKey(before.search?.keys[name], input.search.keys[name], authSecret);
      if (key) keys[name] = key;
    }
    after.search = {
      useEnvironment: input.search.useEnvironment,
      providers: [...new Set(input.search.providers)],
      keys,
      ...(input.search.searxngUrl ? { searxngUrl: input.search.searxngUrl } : {}),
    };
  }
  if (input.runs) after.runs = input.runs;
  return after;
}

/** Refuses (422) an area set here that cannot work; `env` is the effective environment it would give. */
export function assertWorkable(s: StoredSettings, env: Record<string, string | undefined>): void {
  const issues: string[] = [];
  if (s.models && !s.models.useEnvironment && !s.models.model) {
    const roles = s.models.roles;
    const orphans = ROLES.filter((role) => !FALLBACK_CHAIN[role].some((link) => roles[link]));
    if (orphans.length) {
      issues.push(
        `models: set a default model, or a model for ${orphans.join(", ")} (they have none to fall back to)`,
      );
    }
  }
  const compatible = s.providers?.["openai-compatible"];
  if (compatible && !compatible.useEnvironment && !compatible.baseUrl) {
    issues.push("providers.openai-compatible: set the server's base URL (Ollama: http://localhost:11434/v1)");
  }
  if (s.search && !s.search.useEnvironment) {
    try {
      assertSearchConfigured({ env });
    } catch (e) {
      issues.push(`search: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (s.runs && !s.runs.useEnvironment) {
    const v = s.runs.values;
    if (
      v.RUN_DEFAULT_COST_USD !== undefined &&
      v.RUN_MAX_COST_USD !== undefined &&
      v.RUN_DEFAULT_COST_USD > v.RUN_MAX_COST_USD
    ) {
      issues.push("runs: the default cost limit is above the highest cost limit");
    }
  }
  if (issues.length) {
    throw new AppError("validation_failed", `Invalid settings: ${issues.join("; ")}`, { details: issues });
  }
}

const sameUrl = (a: string | undefined, b: string | undefined) =>
  (a ?? "").replace(/\/+$/, "") === (b ?? "").replace(/\/+$/, "");

/**
 * Refuses a provider base URL change that would send the saved key to the new address (422: type
 * the key again) or that comes from an API token rather than an admin's session (403).
 */
export function assertBaseUrlChanges(
  before: StoredSettings,
  input: SettingsInput,
  via: "session" | "token",
): void {
  for (const name of modelProviders) {
    const p = input.providers?.[name];
    const was = before.providers?.[name];
    // A new address saved on "use environment" is checked too: "set here" would use it later.
    if (!p || sameUrl(p.baseUrl, was?.baseUrl) || (p.useEnvironment && !p.baseUrl)) continue;
    const label = providerLabels[name];
    if (via !== "session") {
      throw new AppError(
        "forbidden",
        `Changing the ${label} base URL needs a signed-in admin session; an API token cannot do it.`,
      );
    }
    if (was?.key && !p.key?.value?.trim() && !p.key?.clear) {
      throw new AppError(
        "validation_failed",
        `Invalid settings: providers.${name}: type the API key again to change the base URL (a saved key is never sent to a new address)`,
        { details: [`providers.${name}.key`] },
      );
    }
  }
}
