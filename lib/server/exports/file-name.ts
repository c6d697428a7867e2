/**
 * @internal
 * A download's file name from the run's question, shared by the Markdown, PDF and Word downloads.
 */

/** A file-name-safe ASCII form of the question ("do-heat-pumps-work"), `report` when none is left. */
export function fileBaseName(question: string): string {
  const slug = question
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "report";
}
