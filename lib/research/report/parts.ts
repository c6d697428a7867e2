/**
 * Where a report's own Sources list begins, found by its form, not its heading's words (the heading
 * is in the report's language): the last `##` heading followed only by `[N] [Title](URL)` entries.
 */

/** A line of a sources list: `[N] [Title](url)` as the app writes it, or `N. [Title](url)`. */
const SOURCE_ENTRY = /^\s*(?:\[\d{1,4}\]|\d{1,4}[.)])\s/;
const HEADING = /^\s{0,3}#{1,6}\s/;

/** Offset of the Sources heading in `markdown`, or -1 when the report ends with no source list. */
export function sourcesSectionAt(markdown: string): number {
  const lines = markdown.split("\n");
  const at = lines.findLastIndex((l) => HEADING.test(l));
  if (at < 0) return -1;
  const rest = lines.slice(at + 1).filter((l) => l.trim() !== "");
  if (rest.length === 0 || !rest.every((l) => SOURCE_ENTRY.test(l))) return -1;
  return lines.slice(0, at).reduce((n, l) => n + l.length + 1, 0);
}

/** The report without its closing sources list (and the blank lines before it, but one newline). */
export function reportBody(markdown: string): string {
  const at = sourcesSectionAt(markdown);
  return at < 0 ? markdown : `${markdown.slice(0, at).replace(/\n+$/, "")}\n`;
}

interface TreeNode {
  type: string;
  depth?: number;
}

/**
 * The same, over parsed Markdown's top-level nodes (remark): the index of the Sources heading, or
 * -1. `startsEntry` tells whether a paragraph begins with `[N] `, in the caller's node type.
 */
export function sourcesHeadingIndex<N extends TreeNode>(
  nodes: readonly N[],
  startsEntry: (paragraph: N) => boolean,
): number {
  const at = nodes.findLastIndex((n) => n.type === "heading" && n.depth === 2);
  if (at < 0) return -1;
  const after = nodes.slice(at + 1);
  return after.length > 0 && after.every((n) => n.type === "paragraph" && startsEntry(n)) ? at : -1;
}

/** Whether a paragraph's text begins as a Sources entry does. */
export const entryText = (text: string) => /^\[\d{1,4}\] /.test(text);
