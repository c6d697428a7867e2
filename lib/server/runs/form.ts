/**
 * The home page's question form, on the server side: what it may offer (presets, options within
 * this server's ceilings, the search providers and models the server has configured) and how its
 * fields become the same `{question, settings}` that POST /api/runs takes (createRunSchema).
 */
import { modelConfigStatus } from "../../ai/config-status.ts";
import { ROLES, type Role } from "../../ai/roles.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { runCeilingsFromEnv } from "../../jobs/run-limits.ts";
import { researchConfigSchema } from "../../research/index.ts";
import {
  assertSearchConfigured,
  type ProviderName,
  parseSearchProviders,
  providerNames,
} from "../../search/index.ts";

export const presetNames = ["quick", "standard", "deep"] as const;
export type PresetName = (typeof presetNames)[number];

/** The numbers a preset sets, each also an option the person can change. */
export const presetFields = [
  "maxSupervisionRounds",
  "maxConcurrentResearchers",
  "researcherToolBudget",
  "relevantSourcesToStop",
  "maxCostUsd",
] as const;
export type PresetField = (typeof presetFields)[number];
export type PresetValues = Record<PresetField, number>;

/** Before the server's ceilings; Standard is the engine's own defaults (and the default cost). */
const presetWishes: Record<
  PresetName,
  Omit<PresetValues, "maxCostUsd"> & { maxCostUsd: number | "default" }
> = {
  quick: {
    maxSupervisionRounds: 1,
    maxConcurrentResearchers: 3,
    researcherToolBudget: 6,
    relevantSourcesToStop: 2,
    maxCostUsd: 1,
  },
  standard: {
    maxSupervisionRounds: 3,
    maxConcurrentResearchers: 5,
    researcherToolBudget: 10,
    relevantSourcesToStop: 3,
    maxCostUsd: "default",
  },
  deep: {
    maxSupervisionRounds: 5,
    maxConcurrentResearchers: 8,
    researcherToolBudget: 20,
    relevantSourcesToStop: 6,
    maxCostUsd: 15,
  },
};

export const providerLabels: Record<ProviderName, string> = {
  library: "Your document library",
  searxng: "The web (SearXNG)",
  tavily: "The web (Tavily)",
  exa: "The web (Exa)",
  brave: "The web (Brave Search)",
};

export interface RunFormOptions {
  presets: Record<PresetName, PresetValues>;
  defaultPreset: PresetName;
  /** Highest value each option may take here: the engine's bound or the server's ceiling. */
  max: PresetValues & { maxTokens: number };
  /** Providers the server can search (library always; web ones when their key or URL is set). */
  providers: { name: ProviderName; label: string }[];
  /** What a run searches when it names no providers (SEARCH_PROVIDERS). */
  defaultProviders: ProviderName[];
  /** The configured model of each role, and the distinct models a run may choose among. */
  models: { roles: { role: Role; model: string }[]; allowed: string[] };
  /** Why searching cannot work as configured, if it cannot. */
  searchProblem: string | null;
}

function engineMax(field: keyof typeof researchConfigSchema.shape): number {
  const bounds = researchConfigSchema.shape[field].unwrap() as { maxValue?: number | null };
  return bounds.maxValue ?? Number.MAX_SAFE_INTEGER;
}

export function runFormOptions(env: Env = process.env): RunFormOptions {
  const c = runCeilingsFromEnv(env);
  const max = {
    maxSupervisionRounds: Math.min(engineMax("maxSupervisionRounds"), c.config.maxSupervisionRounds),
    maxConcurrentResearchers: Math.min(
      engineMax("maxConcurrentResearchers"),
      c.config.maxConcurrentResearchers,
    ),
    researcherToolBudget: Math.min(engineMax("researcherToolBudget"), c.config.researcherToolBudget),
    relevantSourcesToStop: engineMax("relevantSourcesToStop"),
    maxCostUsd: c.maxCostUsd,
    maxTokens: c.maxTokens,
  };
  const presets = Object.fromEntries(
    presetNames.map((name) => {
      const wish = presetWishes[name];
      const values = Object.fromEntries(
        presetFields.map((f) => {
          const v = wish[f];
          return [f, Math.min(v === "default" ? c.defaultCostUsd : v, max[f])];
        }),
      ) as PresetValues;
      return [name, values];
    }),
  ) as Record<PresetName, PresetValues>;
  return {
    presets,
    defaultPreset: "standard",
    max,
    providers: providerNames
      .filter((name) => providerConfigured(name, env))
      .map((name) => ({ name, label: providerLabels[name] })),
    defaultProviders: safeDefaultProviders(env),
    models: allowedModels(env),
    searchProblem: searchProblem(env),
  };
}

function providerConfigured(name: ProviderName, env: Env): boolean {
  try {
    assertSearchConfigured({ env, providers: [name] });
    return true;
  } catch {
    return false;
  }
}

function safeDefaultProviders(env: Env): ProviderName[] {
  try {
    return parseSearchProviders(env);
  } catch {
    return [];
  }
}

function searchProblem(env: Env): string | null {
  try {
    assertSearchConfigured({ env });
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The models this server is configured with: a run may move a role to another of them, nothing else. */
export function allowedModels(env: Env = process.env): RunFormOptions["models"] {
  const status = modelConfigStatus(env);
  // A role's model is its chain as stored (members joined by commas): a run may take another role's.
  const roles = status.roles.flatMap((r) =>
    r.configured && r.models.length ? [{ role: r.role, model: r.models.join(",") }] : [],
  );
  return { roles, allowed: [...new Set(roles.map((r) => r.model))] };
}

type Fields = Record<string, string | string[]>;

const one = (fields: Fields, name: string): string | undefined => {
  const v = fields[name];
  return Array.isArray(v) ? v[0] : v;
};
const many = (fields: Fields, name: string): string[] => {
  const v = fields[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};
const isPreset = (v: string | undefined): v is PresetName => presetNames.includes(v as PresetName);

/** A number field: blank is "not set"; anything else must read as a number (zod says so if not). */
function numberField(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  return Number(raw);
}

/**
 * The form's fields as POST /api/runs's body (still to be checked by createRunSchema). The option
 * fields were filled for `basePreset`; when the chosen preset differs (the page ran without
 * JavaScript, so nothing refilled them), each field still at its base value takes the chosen
 * preset's value, and a field the person changed keeps their value.
 */
export function runInputFromForm(
  fields: Fields,
  options: RunFormOptions,
): { question: unknown; settings: unknown } {
  const preset = isPreset(one(fields, "preset"))
    ? (one(fields, "preset") as PresetName)
    : options.defaultPreset;
  const baseName = one(fields, "basePreset");
  const base = isPreset(baseName) ? options.presets[baseName] : options.presets[preset];
  const chosen = options.presets[preset];
  const value = (f: PresetField): number => {
    const v = numberField(one(fields, f));
    return v === undefined || v === base[f] ? chosen[f] : v;
  };
  const maxTokens = numberField(one(fields, "maxTokens"));
  const settings: Record<string, unknown> = {
    maxSupervisionRounds: value("maxSupervisionRounds"),
    maxConcurrentResearchers: value("maxConcurrentResearchers"),
    researcherToolBudget: value("researcherToolBudget"),
    relevantSourcesToStop: value("relevantSourcesToStop"),
    budget: { maxCostUsd: value("maxCostUsd"), ...(maxTokens === undefined ? {} : { maxTokens }) },
    planReview: one(fields, "planReview") === "on",
    clarification: one(fields, "clarification") === "on",
  };
  const language = one(fields, "reportLanguage");
  // `auto` is the engine's default: stored settings hold only what was chosen.
  if (language && language !== "auto") settings.reportLanguage = language;
  const providers = many(fields, "searchProviders");
  if (providers.length === 0) throw new AppError("validation_failed", "Choose at least one place to search.");
  const sameAsDefault =
    providers.length === options.defaultProviders.length &&
    providers.every((p) => (options.defaultProviders as string[]).includes(p));
  // The server's own list is left implicit, so the run follows SEARCH_PROVIDERS as the API would.
  if (!sameAsDefault) settings.searchProviders = providers;
  const models = modelOverrides(fields, options.models);
  if (Object.keys(models).length) settings.models = models;
  return { question: one(fields, "question") ?? "", settings };
}

/** Roles moved to another allowed model; a model the server is not configured with is refused. */
function modelOverrides(fields: Fields, models: RunFormOptions["models"]): Partial<Record<Role, string>> {
  const out: Partial<Record<Role, string>> = {};
  for (const role of ROLES) {
    const picked = one(fields, `model.${role}`);
    if (!picked) continue;
    const current = models.roles.find((r) => r.role === role)?.model;
    if (picked === current) continue;
    if (!models.allowed.includes(picked)) {
      throw new AppError("validation_failed", `The model "${picked}" is not one this server offers.`);
    }
    out[role] = picked;
  }
  return out;
}
