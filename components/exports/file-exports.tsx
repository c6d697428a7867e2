/**
 * The run page's file exports beside the Markdown ones (export-bar.tsx): the report as PDF or Word,
 * and the ended run as a portable bundle; and, for a run opened from a bundle, where it came from.
 * Plain links to the download routes (lib/server/exports/): the browser saves what they answer.
 */
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
  return (
    <div data-print="hide" className="space-y-2">
      <nav aria-label="Download the report as a file" className="flex flex-wrap items-center gap-2">
        <a className={link} href={`/api/runs/${runId}/report.pdf`} download>
          PDF
        </a>
        <a className={link} href={`/api/runs/${runId}/report.docx`} download>
          Word
        </a>
        {ended && (
          <a
            className={link}
            href={`/api/runs/${runId}/bundle`}
            download
            title="The run with its sources, verdicts, passages and events, for another instance to open"
          >
            Run bundle
          </a>
        )}
      </nav>
      {importedFrom && <ImportedNotice importedFrom={importedFrom} />}
    </div>
  );
}

/** An imported run's verdicts are the original instance's: this one never checked them. */
export function ImportedNotice({ importedFrom }: { importedFrom: ImportedFromView }) {
  return (
    <p role="note" data-testid="imported-notice" className="text-sm text-amber-800 dark:text-amber-300">
      Imported from a run bundle exported {importedFrom.exportedAt.slice(0, 10)}: read-only, and its verdicts
      are as recorded by the original instance.
    </p>
  );
}
