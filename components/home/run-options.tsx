"use client";

import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { REPORT_LANGUAGES } from "@/lib/research/ui";
import type { PresetField, RunFormOptions } from "@/lib/server/runs/form";
import { NumberOption } from "./number-option";
import { useProviderLabel } from "./provider-label";

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

const numberFields: { name: PresetField; min: number; step?: number; dollars?: boolean }[] = [
  { name: "maxSupervisionRounds", min: 0 },
  { name: "maxConcurrentResearchers", min: 1 },
  { name: "researcherToolBudget", min: 1 },
  { name: "relevantSourcesToStop", min: 1 },
  { name: "maxCostUsd", min: 0.01, step: 0.01, dollars: true },
];

const modelRoles = ["supervisor", "researcher", "compression", "summarization", "synthesis"] as const;

/**
 * "German (Deutsch)": a language named in the page's language and, when that differs, in itself,
 * so a reader finds theirs whatever the page's language.
 */
function useLanguageName(): (tag: string) => string {
  const locale = useLocale();
  const t = useTranslations("home.options");
  const inPage = new Intl.DisplayNames([locale], { type: "language" });
  return (tag) => {
    const name = inPage.of(tag) ?? tag;
    const native = new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag;
    return name === native ? name : t("languageOption", { name, native });
  };
}

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
  const t = useTranslations("home.options");
  const providerLabel = useProviderLabel();
  const languageName = useLanguageName();
  const set = (patch: Partial<OptionValues>) => onChange({ ...values, ...patch });
  return (
    <details className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <summary className="cursor-pointer font-medium">{t("summary")}</summary>
      <div className="mt-3 space-y-4">
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-2 font-medium">{t("size")}</legend>
          {numberFields.map(({ dollars, ...f }) => (
            <NumberOption
              key={f.name}
              {...f}
              label={t(`fields.${f.name}`)}
              unit={dollars ? t("usDollars") : undefined}
              max={options.max[f.name]}
              value={values.numbers[f.name]}
              onChange={(v) => set({ numbers: { ...values.numbers, [f.name]: v } })}
            />
          ))}
          <NumberOption
            name="maxTokens"
            label={t("fields.maxTokens")}
            min={1000}
            step={1000}
            max={options.max.maxTokens}
            optional={t("noExtraLimit")}
            value={values.maxTokens}
            onChange={(v) => set({ maxTokens: v })}
          />
        </fieldset>
        <p className="text-xs text-muted">{t("costNote")}</p>
        <fieldset className="space-y-1">
          <legend className="mb-1 font-medium">{t("searchIn")}</legend>
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
              {providerLabel(p)}
            </label>
          ))}
        </fieldset>
        <fieldset className="space-y-1">
          <legend className="mb-1 font-medium">{t("checks")}</legend>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="clarification"
              checked={values.clarification}
              onChange={(e) => set({ clarification: e.target.checked })}
            />
            {t("clarification")}
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="planReview"
              checked={values.planReview}
              onChange={(e) => set({ planReview: e.target.checked })}
            />
            {t("planReview")}
          </label>
        </fieldset>
        <label className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{t("reportLanguage")}</span>
          <select
            name="reportLanguage"
            value={values.reportLanguage}
            onChange={(e) => set({ reportLanguage: e.target.value })}
            className="rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
          >
            <option value="auto">{t("sameAsQuestion")}</option>
            {REPORT_LANGUAGES.map((tag) => (
              <option key={tag} value={tag}>
                {languageName(tag)}
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
  const t = useTranslations("home.options");
  const { allowed, roles } = options.models;
  if (allowed.length <= 1) {
    return (
      <p data-testid="model-choice">
        {t.rich("onlyModel", {
          model: allowed[0] ?? t("noModel"),
          label: (chunks: ReactNode) => <span className="font-medium">{chunks}</span>,
          muted: (chunks: ReactNode) => <span className="text-muted">{chunks}</span>,
        })}
      </p>
    );
  }
  const roleLabel = (role: string) =>
    (modelRoles as readonly string[]).includes(role)
      ? t(`roles.${role as (typeof modelRoles)[number]}`)
      : role.replaceAll("_", " ");
  return (
    <fieldset className="flex flex-wrap gap-4" data-testid="model-choice">
      <legend className="mb-2 font-medium">{t("models")}</legend>
      {roles.map(({ role }) => (
        <label key={role} className="flex flex-col gap-1">
          {roleLabel(role)}
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
