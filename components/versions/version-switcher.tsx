import { getTranslations } from "next-intl/server";
import { absoluteTime } from "../home/time-format";

export interface VersionItem {
  id: string;
  createdAt: Date | string;
}

/** Where "What changed" goes from a version: against the one before it, or (the first) the latest against it. */
export function comparisonOf(versions: readonly VersionItem[], currentId: string) {
  const at = versions.findIndex((v) => v.id === currentId);
  if (versions.length < 2 || at < 0) return undefined;
  return at > 0
    ? { after: versions[at], before: versions[at - 1], n: at, since: true }
    : { after: versions[versions.length - 1], before: versions[0], n: versions.length, since: false };
}

/**
 * The run page's version switcher, for a report with more than one version: each version a link
 * ("Version 1", "Version 2", … with its date), the current one marked, and a link to what changed.
 */
export async function VersionSwitcher({
  versions,
  currentId,
}: {
  versions: readonly VersionItem[];
  currentId: string;
}) {
  const comparison = comparisonOf(versions, currentId);
  if (!comparison) return null;
  const t = await getTranslations("versions");
  return (
    <nav aria-label={t("nav")} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <span className="text-muted">{t("label")}</span>
      <ol className="flex flex-wrap gap-x-4 gap-y-1">
        {versions.map((v, i) => {
          const current = v.id === currentId;
          return (
            <li key={v.id}>
              <a
                href={`/runs/${v.id}`}
                aria-current={current ? "page" : undefined}
                className={current ? "font-semibold" : "text-blue-700 underline dark:text-blue-400"}
              >
                {t("version", { n: i + 1 })}
              </a>{" "}
              <span className="text-muted">
                {absoluteTime(new Date(v.createdAt))}
                {current ? ` · ${t("current")}` : ""}
              </span>
            </li>
          );
        })}
      </ol>
      <a
        href={`/runs/${comparison.after.id}/changes?against=${comparison.before.id}`}
        className="text-blue-700 underline dark:text-blue-400"
      >
        {comparison.since
          ? t("whatChangedSince", { n: comparison.n })
          : t("whatChangedIn", { n: comparison.n })}
      </a>
    </nav>
  );
}
