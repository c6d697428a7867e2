"use client";

import { REPORT_LANGUAGES } from "@/lib/research/ui";
import type { PresetField, RunFormOptions } from "@/lib/server/runs/form";
import { labelFor, modelRoleLabels } from "../labels";
import { NumberOption } from "./number-option";

export interface OptionValues {
  numbers: Record<PresetField, string>;
  maxTokens: string;
  providers: string[];
  planReview: boolean;
  clarification: boolean;
  /** `auto` (the question's language) or a language tag the engine writes reports in. */
  reportLanguage: string;
  models: Record<string, string>;
}

const numberFields: { name: PresetField; label: string; min: number; step?: number; unit?: string }[] = [
  { name: "maxSupervisionRounds", label: "Supervision rounds", min: 0 },
  { name: "maxConcurrentResearchers", label: "Researchers at once", min: 1 },
  { name: "researcherToolBudget", label: "Searches and page reads per researcher", min: 1 },
  { name: "relevantSourcesToStop", label: "Relevant sources before a researcher stops", min: 1 },
  { name: "maxCostUsd", label: "Cost limit", min: 0.01, step: 0.01, unit: "US dollars" },
];

/** Everything a preset sets, and more, behind one disclosure so the question stays first. */
export function RunOptions({
  options,
  values,
  onChange,
}: {
  options: RunFormOptions;
  values: OptionValues;
  onChange: (values: OptionValues) => void;
}) {
  const set = (patch: Partial<OptionValues>) => onChange({ ...values, ...patch });
  return (
    <details className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <summary className="cursor-pointer font-medium">Options</summary>
      <div className="mt-3 space-y-4">
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-2 font-medium">Size and budget</legend>
          {numberFields.map((f) => (
            <NumberOption
              key={f.name}
              {...f}
              max={options.max[f.name]}
              value={values.numbers[f.name]}
              onChange={(v) => set({ numbers: { ...values.numbers, [f.name]: v } })}
            />
          ))}
          <NumberOption
            name="maxTokens"
            label="Token limit"
            min={1000}
            step={1000}
            max={options.max.maxTokens}
            optional="no extra limit"
            value={values.maxTokens}
            onChange={(v) => set({ maxTokens: v })}
          />
        </fieldset>
        <p className="text-xs text-muted">
          The cost limit holds for models with a known price; others stop at the token limit.
        </p>
        <fieldset className="space-y-1">
          <legend className="mb-1 font-medium">Search in</legend>
          {options.providers.map((p) => (
            <label key={p.name} className="flex items-center gap-2">
              <input
                type="checkbox"
                name="searchProviders"
                value={p.name}
                checked={values.providers.includes(p.name)}
                onChange={(e) =>
                  set({
                    providers: e.target.checked
                      ? [...values.providers, p.name]
                      : values.providers.filter((n) => n !== p.name),
                  })
                }
              />
              {p.label}
            </label>
          ))}
        </fieldset>
        <fieldset className="space-y-1">
          <legend className="mb-1 font-medium">Checks with you</legend>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="clarification"
              checked={values.clarification}
              onChange={(e) => set({ clarification: e.target.checked })}
            />
            Ask me a clarifying question if needed
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="planReview"
              checked={values.planReview}
              onChange={(e) => set({ planReview: e.target.checked })}
            />
            Let me review the plan first
          </label>
        </fieldset>
        <label className="flex flex-wrap items-center gap-2">
          <span className="font-medium">Report language</span>
          <select
            name="reportLanguage"
            value={values.reportLanguage}
            onChange={(e) => set({ reportLanguage: e.target.value })}
            className="rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
          >
            <option value="auto">Same as the question</option>
            {REPORT_LANGUAGES.map((tag) => (
              // Each language named in itself, so a reader finds theirs whatever the page's language.
              <option key={tag} value={tag} lang={tag}>
                {new Intl.DisplayNames([tag], { type: "language" }).of(tag)}
              </option>
            ))}
          </select>
        </label>
        <ModelChoice options={options} values={values} onChange={(models) => set({ models })} />
      </div>
    </details>
  );
}

/** Models only among those this server is configured with; with one, it is simply named. */
function ModelChoice({
  options,
  values,
  onChange,
}: {
  options: RunFormOptions;
  values: OptionValues;
  onChange: (models: Record<string, string>) => void;
}) {
  const { allowed, roles } = options.models;
  if (allowed.length <= 1) {
    return (
      <p data-testid="model-choice">
        <span className="font-medium">Model:</span> {allowed[0] ?? "none configured"}
        <span className="text-muted"> — the only model this server offers.</span>
      </p>
    );
  }
  return (
    <fieldset className="flex flex-wrap gap-4" data-testid="model-choice">
      <legend className="mb-2 font-medium">Models (among those this server offers)</legend>
      {roles.map(({ role }) => (
        <label key={role} className="flex flex-col gap-1">
          {labelFor(modelRoleLabels, role)}
          <select
            name={`model.${role}`}
            value={values.models[role]}
            onChange={(e) => onChange({ ...values.models, [role]: e.target.value })}
            className="rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {allowed.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      ))}
    </fieldset>
  );
}
