/**
 * How a citation's verdict is shown: a mark and its colour (the same marks globals.css draws after
 * each marker in the report, `.cite[data-verdict]`), and words (`report.verdict`, `report.marker`).
 * No "?": a citation that was not checked reads as not checked (a hollow circle), not as an error.
 */
import { useTranslations } from "next-intl";
import type { CitationSupport } from "@/lib/research/ui";

export const verdictMarks: Record<CitationSupport, { mark: string; className: string }> = {
  supported: { mark: "✓", className: "text-emerald-700 dark:text-emerald-400" },
  partially_supported: { mark: "◐", className: "text-amber-700 dark:text-amber-400" },
  unsupported: { mark: "✗", className: "text-red-700 dark:text-red-400" },
  unchecked: { mark: "○", className: "text-muted" },
};

/**
 * The words the report renderer puts into a report's page (not into the report): a marker's
 * accessible name ("Source 2, supported by the source") and an image's link text without alt. In
 * the reader's language; the renderer is a plain function, so its caller hands them in.
 */
export interface ReportNames {
  marker: (n: number, verdict: CitationSupport | undefined) => string;
  image: string;
  /** The notice on a partial report stored without its own (the engine writes one in the report's language). */
  partial: { title: string; text: string };
}

/** The parts of next-intl's `t` for the "report" namespace that the names need (server or client). */
export type ReportTranslator = (
  key: "marker" | "image" | "partial.title" | "partial.text",
  values?: { number: number; verdict: CitationSupport | "none" },
) => string;

export function reportNames(t: ReportTranslator): ReportNames {
  return {
    marker: (number, verdict) => t("marker", { number, verdict: verdict ?? "none" }),
    image: t("image"),
    partial: { title: t("partial.title"), text: t("partial.text") },
  };
}

/** The report's names in the page's language, for a component (client, or a server one that is not async). */
export function useReportNames(): ReportNames {
  return reportNames(useTranslations("report") as ReportTranslator);
}

/** What tells one language's names from another's: part of a kept drawing's key. */
export function reportNamesKey(names: ReportNames): string {
  return [names.image, names.marker(1, undefined), names.marker(1, "supported"), names.partial.text].join(
    "\n",
  );
}
