/**
 * The effective configuration: the environment with the admin's stored settings laid over it, in
 * the environment's own shape (MODEL_*, *_API_KEY, *_BASE_URL, SEARCH_PROVIDERS, RUN_*), so the
 * model registry, search, run ceilings and the setup status read it exactly as they read
 * process.env. An area left on "use environment" adds nothing. Read from the database (the worker
 * may be another process), cached for a moment per process and dropped at once when this process
 * saves settings.
 */
import { createHash } from "node:crypto";
import { type Db, defaultDataDir } from "../../../db/client.ts";
import { readAppSettings } from "../../../db/queries/settings.ts";
import { BASE_URL_VARIABLE } from "../../ai/providers.ts";
import { ROLES, roleVariable } from "../../ai/roles.ts";
import type { Env } from "../../env.ts";
import { decryptSecret, resolveAuthSecret } from "../../secrets.ts";
import {
  type KeyedSearchProvider,
  type ModelProvider,
  modelProviders,
  runVariableNames,
  type SealedKey,
  type StoredSettings,
  settingAreas,
  storedAreaSchemas,
} from "./schema.ts";

export type Overlay = Record<string, string | undefined>;

export interface EffectiveConfig {
  /** The environment with the stored settings over it. The same object while nothing changes. */
  env: Env;
  /** The admin chose the models here (so a run snapshots its models when created). */
  modelsStored: boolean;
  /** Stored values that could not be used (e.g. a key sealed under another AUTH_SECRET). */
  problems: string[];
}

export const providerKeyVariable: Record<ModelProvider, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
  "openai-compatible": "OPENAI_COMPATIBLE_API_KEY",
};

export const searchKeyVariable: Record<KeyedSearchProvider, string> = {
  tavily: "TAVILY_API_KEY",
  exa: "EXA_API_KEY",
  brave: "BRAVE_API_KEY",
};

/** The stored areas that pass their schema; a malformed one is skipped (and reported) rather than trusted. */
export function parseStoredSettings(raw: Record<string, unknown>): {
  settings: StoredSettings;
  problems: string[];
} {
  const settings: StoredSettings = {};
  const problems: string[] = [];
  for (const area of settingAreas) {
    if (raw[area] === undefined) continue;
    const parsed = storedAreaSchemas[area].safeParse(raw[area]);
    if (parsed.success) (settings as Record<string, unknown>)[area] = parsed.data;
    else problems.push(`The stored ${area} settings are not valid and are ignored.`);
  }
  return { settings, problems };
}

/** The environment variables the stored settings set (or unset, for an area set here without them). */
export function settingsOverlay(
  s: StoredSettings,
  authSecret: string,
): { overlay: Overlay; problems: string[] } {
  const overlay: Overlay = {};
  const problems: string[] = [];
  const open = (key: SealedKey | undefined, what: string): string | undefined => {
    if (!key) return undefined;
    try {
      return decryptSecret(key.sealed, authSecret, "settings");
    } catch {
      problems.push(
        `The stored ${what} cannot be decrypted (AUTH_SECRET changed since it was saved): save it again.`,
      );
      return undefined;
    }
  };
  if (s.models && !s.models.useEnvironment) {
    overlay.MODEL = s.models.model;
    for (const role of ROLES) overlay[roleVariable(role)] = s.models.roles[role];
  }
  for (const provider of modelProviders) {
    const p = s.providers?.[provider];
    if (!p || p.useEnvironment) continue;
    overlay[providerKeyVariable[provider]] = open(p.key, `${provider} key`);
    // Unset here means the provider's own API, not whatever the environment names.
    overlay[BASE_URL_VARIABLE[provider]] = p.baseUrl;
  }
  if (s.search && !s.search.useEnvironment) {
    overlay.SEARCH_PROVIDERS = s.search.providers.join(",");
    for (const [name, variable] of Object.entries(searchKeyVariable) as [KeyedSearchProvider, string][]) {
      overlay[variable] = open(s.search.keys[name], `${name} key`);
    }
    overlay.SEARXNG_URL = s.search.searxngUrl;
  }
  if (s.runs && !s.runs.useEnvironment) {
    for (const name of runVariableNames) {
      const v = s.runs.values[name];
      overlay[name] = v === undefined ? undefined : String(v);
    }
  }
  return { overlay, problems };
}

const cacheMs = 2000;
// Process-wide, not module-wide: Next bundles each route handler and page apart, each with its own
// copy of this module, so a save through the settings route must drop what a page's copy cached.
const cacheKey = Symbol.for("deep-research.settings-cache");
interface SettingsCache {
  entry: { at: number; raw: Record<string, unknown> } | null;
  generation: number;
}
function settingsCache(): SettingsCache {
  const g = globalThis as typeof globalThis & { [cacheKey]?: SettingsCache };
  g[cacheKey] ??= { entry: null, generation: 0 };
  return g[cacheKey];
}
/** Merged environments by base env and overlay fingerprint: the same inputs give the same object,
 * so the worker's per-env model registry (and its concurrency limiters) is shared across runs. */
const merged = new WeakMap<object, Map<string, Env>>();

/** Drops the cached settings (after a save in this process). */
export function invalidateEffectiveConfig(): void {
  const cache = settingsCache();
  cache.entry = null;
  cache.generation++;
}

async function storedRaw(db: Db): Promise<Record<string, unknown>> {
  const cache = settingsCache();
  if (cache.entry && Date.now() - cache.entry.at < cacheMs) return cache.entry.raw;
  const seen = cache.generation;
  const raw = await readAppSettings(db);
  if (seen === cache.generation) cache.entry = { at: Date.now(), raw };
  return raw;
}

export function authSecretFor(base: Env): string {
  return resolveAuthSecret(base, defaultDataDir(base as NodeJS.ProcessEnv));
}

/** The environment as the stored settings change it; `base` defaults to process.env. */
export async function effectiveConfig(db: Db, base: Env = process.env): Promise<EffectiveConfig> {
  const { settings, problems } = parseStoredSettings(await storedRaw(db));
  const modelsStored = settings.models ? !settings.models.useEnvironment : false;
  if (Object.keys(settings).length === 0) return { env: base, modelsStored, problems };
  const sealed = settingsOverlay(settings, authSecretFor(base));
  problems.push(...sealed.problems);
  return { env: mergedEnv(base, sealed.overlay), modelsStored, problems };
}

function mergedEnv(base: Env, overlay: Overlay): Env {
  if (Object.keys(overlay).length === 0) return base;
  // A digest, so the map's keys hold no key in the clear.
  const fingerprint = createHash("sha256")
    .update(JSON.stringify(Object.entries(overlay)))
    .digest("hex");
  let byOverlay = merged.get(base);
  if (!byOverlay) {
    byOverlay = new Map();
    merged.set(base, byOverlay);
  }
  let env = byOverlay.get(fingerprint);
  if (!env) {
    env = { ...base, ...overlay };
    byOverlay.set(fingerprint, env);
  }
  return env;
}
