import { type DirectivePriority, directivePriorities } from "@/lib/research/vocabulary";

/** The one priority picker (steering and plan review), listing the engine's vocabulary. */
export function PrioritySelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: DirectivePriority;
  onChange: (priority: DirectivePriority) => void;
}) {
  return (
    <select
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value as DirectivePriority)}
      className="rounded border border-zinc-300 px-1 dark:border-zinc-700 dark:bg-zinc-900"
    >
      {directivePriorities.map((p) => (
        <option key={p} value={p}>
          {p}
        </option>
      ))}
    </select>
  );
}
