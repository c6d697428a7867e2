/** The bordered, scrollable table of the list pages: a header row of column names, then the caller's rows. */
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

export type Column = { name: string; align?: "right" };

/** The last column is always the row actions, named for screen readers only. */
export function DataTable({
  label,
  columns,
  children,
}: {
  /** The table's accessible name, when the page needs one. */
  label?: string;
  columns: Column[];
  /** The body rows. */
  children: ReactNode;
}) {
  const t = useTranslations("table");
  return (
    <div className="relative overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
      <table aria-label={label} className="w-full text-left text-sm">
        <thead className="bg-zinc-100 text-xs uppercase text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            {columns.map((c) => (
              <th key={c.name} className={`px-3 py-2 font-medium${c.align === "right" ? " text-right" : ""}`}>
                {c.name}
              </th>
            ))}
            <th className="px-3 py-2">
              <span className="sr-only">{t("actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">{children}</tbody>
      </table>
    </div>
  );
}
