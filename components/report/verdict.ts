/** How a citation's verdict is shown beside its marker: a mark, its colour, and words (labels.ts). */
import type { CitationSupport } from "@/lib/research/ui";
import { verdictLabels } from "../labels";

export const verdictMarks: Record<CitationSupport, { mark: string; className: string }> = {
  supported: { mark: "✓", className: "text-emerald-700 dark:text-emerald-400" },
  partially_supported: { mark: "◐", className: "text-amber-700 dark:text-amber-400" },
  unsupported: { mark: "✗", className: "text-red-700 dark:text-red-400" },
  unchecked: { mark: "?", className: "text-muted" },
};

/** The marker's accessible name: "Source 2, supported by the source". */
export function citationName(n: number, verdict: CitationSupport | undefined): string {
  return verdict ? `Source ${n}, ${verdictLabels[verdict].toLowerCase()}` : `Source ${n}`;
}
