/**
 * How a citation's verdict is shown: a mark and its colour (the same marks globals.css draws after
 * each marker in the report, `.cite[data-verdict]`), and words (labels.ts). No "?": a citation that
 * was not checked reads as not checked (a hollow circle), not as an error.
 */
import type { CitationSupport } from "@/lib/research/ui";
import { verdictLabels } from "../labels";

export const verdictMarks: Record<CitationSupport, { mark: string; className: string }> = {
  supported: { mark: "✓", className: "text-emerald-700 dark:text-emerald-400" },
  partially_supported: { mark: "◐", className: "text-amber-700 dark:text-amber-400" },
  unsupported: { mark: "✗", className: "text-red-700 dark:text-red-400" },
  unchecked: { mark: "○", className: "text-muted" },
};

/** The marker's accessible name: "Source 2, supported by the source". */
export function citationName(n: number, verdict: CitationSupport | undefined): string {
  return verdict ? `Source ${n}, ${verdictLabels[verdict].toLowerCase()}` : `Source ${n}`;
}
