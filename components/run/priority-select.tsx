import { useTranslations } from "next-intl";
import { type DirectivePriority, directivePriorities } from "@/lib/research/ui";

/**
 * The one priority picker (steering and plan review): the engine's four priorities, most urgent
 * first, in plain words. Uncontrolled and named, so it posts with its form before hydration too.
 */
export function PrioritySelect({
  id,
  name,
  defaultValue = "normal",
  className = "",
}: {
  /** The id its <label htmlFor> names. */
  id: string;
  name: string;
  defaultValue?: DirectivePriority;
  className?: string;
}) {
  const t = useTranslations("run.priority");
  return (
    <select
      id={id}
      name={name}
      defaultValue={defaultValue}
      className={`rounded border border-zinc-300 bg-white px-1 py-1 dark:border-zinc-700 dark:bg-zinc-900 ${className}`}
    >
      {directivePriorities.map((p) => (
        <option key={p} value={p}>
          {t(p)}
        </option>
      ))}
    </select>
  );
}
