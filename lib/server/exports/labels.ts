/** The words an export adds to the report: the Sources section's, the verdicts', the header's. */
import type { CitationSupport } from "../../research/ui.ts";

export const verdictWords: Record<CitationSupport, string> = {
  supported: "Supported by the source",
  partially_supported: "Partly supported by the source",
  unsupported: "Not supported by the source",
  unchecked: "Not checked",
};

export const exportWords = {
  sources: "Sources",
  partial: "Partial report: research was stopped early, the report rests on what was gathered by then.",
  dateLine: (date: Date) => `Deep research report · ${date.toISOString().slice(0, 10)}`,
  claim: "Claim",
  passage: "Stored passage",
  recordedElsewhere: "Verdicts as recorded by the instance this run was imported from.",
  verdict: (support: CitationSupport, recordedElsewhere: boolean) =>
    recordedElsewhere
      ? `${verdictWords[support]} (as recorded by the original instance)`
      : verdictWords[support],
};

/** Long stored passages are cut in a file: the claim's context, not the page. */
export function shortPassage(passage: string, max = 1200): string {
  const flat = passage.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max).trimEnd()}…`;
}
