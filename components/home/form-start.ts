/**
 * Where the new-run form starts for "Edit question": the earlier run's preset and options, so
 * changing the question does not silently reset a Deep run to Standard. Pure (tested alone).
 */
// Types only: run-form.ts is server code (search providers, telemetry) and must stay out of the browser.
import type { PresetField, PresetName, PresetValues, RunFormOptions } from "@/lib/server/runs/form";
import type { OptionValues } from "./run-options";

export interface FormStart {
  preset: PresetName;
  values: OptionValues;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The form as it starts for a new question: the options' defaults. */
export function defaultStart(options: RunFormOptions): FormStart {
  return {
    preset: options.defaultPreset,
    values: {
      numbers: asText(options.presets[options.defaultPreset]),
      maxTokens: "",
      providers: [...options.defaultProviders],
      planReview: false,
      clarification: false,
      reportLanguage: "auto",
      models: Object.fromEntries(options.models.roles.map((r) => [r.role, r.model])),
    },
  };
}

export const asText = (p: PresetValues) =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)])) as OptionValues["numbers"];

/**
 * The form as an earlier run was started: its numbers, budget, places searched, plan review,
 * clarification and per-role models (where this server still offers them); the preset whose numbers
 * it matches (else the one it matches most closely, its own numbers kept).
 */
export function startFromSettings(settings: unknown, options: RunFormOptions): FormStart {
  const start = defaultStart(options);
  const s = (settings ?? {}) as Record<string, unknown>;
  const budget = (s.budget ?? {}) as Record<string, unknown>;
  const base = options.presets[options.defaultPreset];
  const presetFields = Object.keys(base) as PresetField[];
  const numbers = Object.fromEntries(
    presetFields.map((f) => [f, num(f === "maxCostUsd" ? budget.maxCostUsd : s[f]) ?? base[f]]),
  ) as PresetValues;
  const matches = (name: PresetName) =>
    presetFields.filter((f) => options.presets[name][f] === numbers[f]).length;
  const names = Object.keys(options.presets) as PresetName[];
  const preset = names.reduce((best, name) => (matches(name) > matches(best) ? name : best), start.preset);
  const offered = new Set(options.providers.map((p) => p.name as string));
  const providers = Array.isArray(s.searchProviders)
    ? s.searchProviders.filter((p): p is string => typeof p === "string" && offered.has(p))
    : start.values.providers;
  const models = { ...start.values.models };
  for (const [role, chain] of Object.entries((s.models ?? {}) as Record<string, unknown>)) {
    if (typeof chain === "string" && role in models && options.models.allowed.includes(chain))
      models[role] = chain;
  }
  return {
    preset,
    values: {
      numbers: asText(numbers),
      maxTokens: num(budget.maxTokens) === undefined ? "" : String(budget.maxTokens),
      providers: providers.length ? providers : start.values.providers,
      planReview: s.planReview === true,
      clarification: s.clarification === true,
      reportLanguage: typeof s.reportLanguage === "string" ? s.reportLanguage : "auto",
      models,
    },
  };
}
