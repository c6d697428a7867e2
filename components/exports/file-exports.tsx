/**
 * The run page's file exports beside the Markdown ones (export-bar.tsx): the report as PDF or Word,
 * and the ended run as a portable bundle; and, for a run opened from a bundle, where it came from.
 * Plain links to the download routes (lib/server/exports/): the browser saves what they answer.
 */
import { useFormatter, useTranslations } from "next-intl";

const link =
  "rounded border border-zinc-300 px-3 py-1 text-sm no-underline hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

export interface ImportedFromView {
  originalId: string;
  exportedAt: string;
}

export function FileExports({
  runId,
  ended,
  importedFrom,
}: {
  runId: string;
  ended: boolean;
  importedFrom?: ImportedFromView | null;
}) {
  const t = useTranslations("exports");
  return (
    <div data-print="hide" className="space-y-2">
      <nav aria-label={t("label")} className="flex flex-wrap items-center gap-2">
        <a className={link} href={`/api/runs/${runId}/report.pdf`} download>
          {t("pdf")}
        </a>
        <a className={link} href={`/api/runs/${runId}/report.docx`} download>
          {t("word")}
        </a>
        {ended && (
          <a className={link} href={`/api/runs/${runId}/bundle`} download title={t("bundleHint")}>
            {t("bundle")}
          </a>
        )}
      </nav>
      {importedFrom && <ImportedNotice importedFrom={importedFrom} />}
    </div>
  );
}

/** An imported run's verdicts are the original instance's: this one never checked them. */
export function ImportedNotice({ importedFrom }: { importedFrom: ImportedFromView }) {
  const t = useTranslations("exports");
  const format = useFormatter();
  // In UTC: the server's render and the browser's must say the same day.
  const date = format.dateTime(new Date(importedFrom.exportedAt), { dateStyle: "medium", timeZone: "UTC" });
  return (
    <p role="note" data-testid="imported-notice" className="text-sm text-amber-800 dark:text-amber-300">
      {t("imported", { date })}
    </p>
  );
}
