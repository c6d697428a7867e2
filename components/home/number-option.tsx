"use client";

import { useTranslations } from "next-intl";

/**
 * One numeric option, never above what this server allows: typing a larger number shows the
 * maximum instead, and the label says what it is. The browser's own min/max also hold without
 * JavaScript.
 */
export function NumberOption({
  name,
  label,
  value,
  min,
  max,
  step = 1,
  onChange,
  unit,
  optional,
}: {
  name: string;
  label: string;
  value: string;
  min: number;
  max: number;
  step?: number;
  onChange: (value: string) => void;
  unit?: string;
  optional?: string;
}) {
  const t = useTranslations("home.options");
  const id = `option-${name}`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm">
        {unit ? t("withUnit", { label, unit }) : label}
      </label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode={step < 1 ? "decimal" : "numeric"}
        min={min}
        max={max}
        step={step}
        value={value}
        placeholder={optional}
        aria-describedby={`${id}-max`}
        onChange={(e) => onChange(clampText(e.target.value, max))}
        className="w-32 rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <span id={`${id}-max`} className="text-xs text-muted">
        {t("max", { max })}
      </span>
    </div>
  );
}

/** The typed text, or the maximum when it reads as a larger number (blank and partial input stay). */
export function clampText(text: string, max: number): string {
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) && n > max ? String(max) : text;
}
