/** A download's file name from the run's question: lower-case words joined by dashes, ASCII only. */
export function reportFilename(question: string): string {
  const slug = question
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return `${slug || "report"}.md`;
}
