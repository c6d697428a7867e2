"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { PresetName, RunFormOptions } from "@/lib/server/runs/form";

const presetNames: PresetName[] = ["quick", "standard", "deep"];

/** Quick / Standard / Deep: each sets the numbers under Options (shown in its description). */
export function Presets({
  options,
  value,
  onChange,
}: {
  options: RunFormOptions;
  value: PresetName;
  onChange: (preset: PresetName) => void;
}) {
  const common = useTranslations("common");
  const t = useTranslations("home.presets");
  const format = useFormatter();
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{t("legend")}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {presetNames.map((name) => {
          const p = options.presets[name];
          return (
            <label
              key={name}
              className="flex cursor-pointer gap-2 rounded-lg border border-zinc-300 p-3 text-sm has-[:checked]:border-zinc-900 has-[:checked]:bg-zinc-50 dark:border-zinc-700 dark:has-[:checked]:border-zinc-100 dark:has-[:checked]:bg-zinc-900"
            >
              <input
                type="radio"
                name="preset"
                value={name}
                checked={value === name}
                onChange={() => onChange(name)}
                aria-describedby={`preset-${name}-hint`}
                className="mt-1"
              />
              <span>
                <span className="block font-medium">{t(`${name}.label`)}</span>
                <span id={`preset-${name}-hint`} className="block text-xs text-muted">
                  {t("summary", {
                    hint: t(`${name}.hint`),
                    rounds: common("rounds", { count: p.maxSupervisionRounds }),
                    researchers: common("researchers", { count: p.maxConcurrentResearchers }),
                    cost: format.number(p.maxCostUsd, {
                      style: "currency",
                      currency: "USD",
                      minimumFractionDigits: 0,
                    }),
                  })}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
