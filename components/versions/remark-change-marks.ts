/**
 * Marks, in the newer version of a report, the blocks (paragraph, list item, table cell, heading) that hold a
 * changed or added claim of the diff: `data-change="changed"|"added"` and a title saying which, for
 * the page's styles. No HTML is written into the Markdown: the mark is a property of the block.
 * A claim is found in a block by its words in order (claimWords, as the diff compares them), with
 * the citation markers left out, so emphasis, links and markers around it do not hide it.
 */
import { CITATION_MARKER, claimWords } from "@/lib/research/ui";
import type { MdNode } from "../markdown-safety";

type Node = MdNode & { data?: { hProperties?: Record<string, unknown> } };

export type ChangeKind = "changed" | "added";

export interface ChangeMarksOptions {
  claims: readonly { text: string; kind: ChangeKind }[];
  /** The title of a marked block, by kind ("Changed claim", "Added claim"). */
  labels: Record<ChangeKind, string>;
}

const MARKED = new Set(["paragraph", "tableCell", "heading"]);
const textOf = (node: Node): string => node.value ?? (node.children ?? []).map(textOf).join("");
/** Words of a text as one string with a space either side, so containment is word by word. */
const spaced = (text: string) =>
  ` ${claimWords(text.replace(new RegExp(CITATION_MARKER.source, "g"), " ")).key} `;

export function remarkChangeMarks({ claims, labels }: ChangeMarksOptions) {
  const wanted = claims
    .map((c) => ({ key: spaced(c.text), kind: c.kind }))
    .filter((c) => c.key.trim() !== "")
    // A changed claim's mark wins over an added one's in the same block.
    .sort((a, b) => Number(b.kind === "changed") - Number(a.kind === "changed"));
  const mark = (node: Node, text: string) => {
    const hit = wanted.find((c) => spaced(text).includes(c.key));
    if (!hit) return;
    node.data = {
      ...node.data,
      hProperties: { ...node.data?.hProperties, dataChange: hit.kind, title: labels[hit.kind] },
    };
  };
  const visit = (node: Node) => {
    if (MARKED.has(node.type)) return mark(node, textOf(node));
    const children = (node.children ?? []) as Node[];
    // A tight list draws its item's paragraph without a <p>: the item itself carries the mark.
    if (node.type === "listItem") {
      mark(
        node,
        children
          .filter((c) => c.type === "paragraph")
          .map(textOf)
          .join(" "),
      );
      for (const child of children) if (child.type !== "paragraph") visit(child);
      return;
    }
    for (const child of children) visit(child);
  };
  return (root: Node) => {
    if (wanted.length > 0) visit(root);
  };
}
