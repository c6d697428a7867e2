"use client";

import { useTranslations } from "next-intl";
import type { PresetName, RunFormOptions } from "@/lib/server/runs/form";

const presetText: Record<PresetName, { label: string; hint: string }> = {
  quick: { label: "Quick", hint: "a short look: few rounds and researchers" },
  standard: { label: "Standard", hint: "the usual depth" },
  deep: { label: "Deep", hint: "more rounds, researchers and sources" },
};

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
  const t = useTranslations("common");
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">How thorough</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {(Object.keys(presetText) as PresetName[]).map((name) => {
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
                <span className="block font-medium">{presetText[name].label}</span>
                <span id={`preset-${name}-hint`} className="block text-xs text-muted">
                  {presetText[name].hint} — {t("rounds", { count: p.maxSupervisionRounds })},{" "}
                  {t("researchers", { count: p.maxConcurrentResearchers })}, up to ${p.maxCostUsd}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
