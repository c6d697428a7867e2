/**
 * Where a report's own Sources list begins, found by its form, not its heading's words (the heading
 * is in the report's language): the last `##` heading followed only by `[N] [Title](URL)` entries.
 */

/** A line of the list buildSourcesSection writes. */
const ENTRY = /^\[\d{1,4}\] \[/;

/** Offset of the Sources heading in `markdown`, or -1 when the report has no source list. */
export function sourcesSectionAt(markdown: string): number {
  const headings = [...markdown.matchAll(/^## .*$/gm)];
  const last = headings.at(-1);
  if (last?.index === undefined) return -1;
  const after = markdown
    .slice(last.index + last[0].length)
    .split("\n")
    .filter((l) => l.trim());
  return after.length > 0 && after.every((l) => ENTRY.test(l)) ? last.index : -1;
}

/** The report without its Sources list. */
export function reportBody(markdown: string): string {
  const at = sourcesSectionAt(markdown);
  return at < 0 ? markdown : markdown.slice(0, at);
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
