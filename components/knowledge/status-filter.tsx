import { useTranslations } from "next-intl";
import type { KnowledgeStatus } from "@/lib/research/ui";
import { type Filter, GROUPS } from "./types";

/** Show every section, or only one status; each button says how many items it holds. */
export function StatusFilter({
  groups = GROUPS,
  filter,
  total,
  counts,
  onChange,
}: {
  /** The sections the filter chooses among. */
  groups?: typeof GROUPS;
  filter: Filter;
  total: number;
  counts: Record<KnowledgeStatus, number>;
  onChange: (f: Filter) => void;
}) {
  const t = useTranslations("knowledge");
  return (
    <fieldset className="relative flex flex-wrap gap-2 text-sm">
      <legend className="sr-only">{t("filter.legend")}</legend>
      {(["all", ...groups.map((g) => g.status)] as Filter[]).map((f) => {
        const label =
          f === "all"
            ? t("filter.all", { count: total })
            : t("filter.group", { title: t(`status.${f}`), count: counts[f] });
        return (
          <button
            key={f}
            type="button"
            aria-pressed={filter === f}
            onClick={() => onChange(f)}
            className="rounded-full border border-zinc-300 px-3 py-1 aria-pressed:bg-zinc-900 aria-pressed:text-white dark:border-zinc-700 dark:aria-pressed:bg-zinc-100 dark:aria-pressed:text-zinc-900"
          >
            {label}
          </button>
        );
      })}
    </fieldset>
  );
}
