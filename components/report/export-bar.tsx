"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

const button =
  "rounded border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

/**
 * Copy the report as Markdown, download it as a file named from the question, or print it (the
 * print stylesheet keeps only the report and its sources). Hidden when printing. Without `markdown`
 * (the page was sent with the report already rendered), Copy fetches it.
 */
export function ExportBar({ runId, markdown }: { runId: string; markdown?: string }) {
  const t = useTranslations("report.export");
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  return (
    <fieldset
      aria-label={t("label")}
      data-print="hide"
      className="m-0 flex flex-wrap items-center gap-2 border-0 p-0"
    >
      <button
        type="button"
        className={button}
        onClick={() =>
          // The clipboard needs a secure context (https or localhost); elsewhere, download instead.
          copyText(markdown ?? fetchReport(runId)).then(
            () => setCopied("yes"),
            () => setCopied("failed"),
          )
        }
      >
        {t("copy")}
      </button>
      <a className={`${button} no-underline`} href={`/api/runs/${runId}/report.md?download=1`} download>
        {t("download")}
      </a>
      <button type="button" className={button} onClick={() => window.print()}>
        {t("print")}
      </button>
      <span role="status" aria-live="polite" className="text-sm text-muted">
        {{ no: "", yes: t("copied"), failed: t("copyFailed") }[copied]}
      </span>
    </fieldset>
  );
}

function fetchReport(runId: string): Promise<string> {
  return fetch(`/api/runs/${runId}/report.md`).then((r) =>
    r.ok ? r.text() : Promise.reject(new Error(`report: ${r.status}`)),
  );
}

/**
 * Text still being fetched goes to the clipboard as a promised item: the click's permission to
 * write would be gone once the fetch ends (Safari); writeText where ClipboardItem is missing.
 */
function copyText(text: string | Promise<string>): Promise<void> {
  if (typeof text === "string") return navigator.clipboard.writeText(text);
  if (typeof ClipboardItem === "undefined") return text.then((t) => navigator.clipboard.writeText(t));
  const blob = text.then((t) => new Blob([t], { type: "text/plain" }));
  return navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
}
