/**
 * The report's shape on a page: citation markers become links to their source entry, each entry
 * of the Sources list gets its anchor, and the report's headings sit below the page's one H1
 * (under a page heading, a leading H1 is the report's title: the page shows the question as its
 * one title, so it is dropped; any other H1 demotes every heading a level). Each heading gets an
 * id (`h-` and a slug) for the table of contents.
 */

import type { CitationSupport } from "@/lib/research/ui";
import {
  CITATION_MARKER,
  entryText,
  parseCitationGroup,
  REPORT_WORDS,
  sourcesHeadingIndex,
} from "@/lib/research/ui";
import type { MdNode } from "../markdown-safety";

type Node = MdNode & { depth?: number; data?: { hProperties?: Record<string, unknown> } };

export interface ReportShapeOptions {
  /** The run's question, the page's H1: the report's own leading H1 is not shown under it. */
  question?: string;
  /** Each marker's verdict by number, in reading order (markerVerdicts). */
  verdicts?: Map<number, CitationSupport[]>;
  /** The report is stored as partial: it shows one notice saying so (its own, or this one). */
  partial?: boolean;
  /** The words of the notice put on a partial report that has none of its own (verdict.ts). */
  partialNotice?: { title: string; text: string };
}

/** How a partial report's own notice opens, in each language the engine writes reports in. */
const PARTIAL_OPENINGS = Object.values(REPORT_WORDS).map((words) => words.partial);

/** The report's own notice (a blockquote opening with "**Partial report.**", see synthesis.ts), if any. */
const isPartialNotice = (node: Node) => {
  if (node.type !== "blockquote") return false;
  const text = textOf(node).trim();
  return PARTIAL_OPENINGS.some((opening) => text.startsWith(opening));
};

/**
 * A partial report carries one notice, marked for the page's notice style: the one the engine wrote
 * at its top, or, for a report without it, one put there.
 */
function partialNotice(
  top: Node[],
  partial: boolean | undefined,
  words: ReportShapeOptions["partialNotice"],
): Node[] {
  const at = top.findIndex(isPartialNotice);
  if (at < 0 && (!partial || !words)) return top;
  const notice: Node =
    at >= 0
      ? top[at]
      : {
          type: "blockquote",
          children: [
            {
              type: "paragraph",
              children: [
                { type: "strong", children: [{ type: "text", value: words?.title }] },
                { type: "text", value: ` ${words?.text}` },
              ],
            },
          ],
        };
  notice.data = { ...notice.data, hProperties: { ...notice.data?.hProperties, dataNotice: "partial" } };
  return at >= 0 ? top : [notice, ...top];
}

/** Where a citation marker links: its entry in the report's Sources list. */
export const sourceAnchor = (n: number) => `source-${n}`;

const textOf = (node: Node): string => node.value ?? (node.children ?? []).map(textOf).join("");
const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** Nodes that keep their brackets: code, and links (whose words are not ours to rewrite). */
const KEEP = new Set(["code", "inlineCode", "link", "linkReference", "definition", "html"]);

function markerLinks(text: string, next: (n: number) => CitationSupport | undefined): Node[] {
  const out: Node[] = [];
  let last = 0;
  for (const m of text.matchAll(new RegExp(CITATION_MARKER.source, "g"))) {
    const numbers = parseCitationGroup(m[1]);
    if (!numbers) continue;
    if (m.index > last) out.push({ type: "text", value: text.slice(last, m.index) });
    for (const n of numbers) {
      const verdict = next(n);
      out.push({
        type: "link",
        url: `#${sourceAnchor(n)}`,
        title: null,
        children: [{ type: "text", value: `[${n}]` }],
        data: { hProperties: { dataCitation: n, ...(verdict ? { dataVerdict: verdict } : {}) } },
      });
    }
    last = m.index + m[0].length;
  }
  if (last === 0) return [{ type: "text", value: text }];
  if (last < text.length) out.push({ type: "text", value: text.slice(last) });
  return out;
}

function linkMarkers(node: Node, next: (n: number) => CitationSupport | undefined): void {
  if (!node.children) return;
  node.children = (node.children as Node[]).flatMap((child) => {
    if (child.type === "text" && child.value) return markerLinks(child.value, next);
    if (!KEEP.has(child.type)) linkMarkers(child, next);
    return [child];
  });
}

/** `[N] [Title](url)` paragraphs of the Sources list get id="source-N"; their [N] stays text. */
function anchorEntries(section: Node[]): void {
  for (const node of section) {
    if (node.type !== "paragraph") continue;
    const first = node.children?.[0];
    const n = first?.type === "text" ? first.value?.match(/^\[(\d{1,4})\]/)?.[1] : undefined;
    if (n)
      node.data = { ...node.data, hProperties: { ...node.data?.hProperties, id: sourceAnchor(Number(n)) } };
  }
}

/** The id of a heading of the report: `h-` and its words as a slug, unique within the report. */
function headingIds(top: Node[]): void {
  const used = new Map<string, number>();
  for (const node of top) {
    if (node.type !== "heading") continue;
    const slug = words(textOf(node)).replace(/ /g, "-").slice(0, 60) || "section";
    const k = used.get(slug) ?? 0;
    used.set(slug, k + 1);
    const id = `h-${slug}${k ? `-${k + 1}` : ""}`;
    node.data = { ...node.data, hProperties: { ...node.data?.hProperties, id } };
  }
}

function demote(node: Node): void {
  if (node.type === "heading" && node.depth !== undefined) node.depth = Math.min(6, node.depth + 1);
  for (const child of (node.children ?? []) as Node[]) demote(child);
}

export function remarkReportShape(options: ReportShapeOptions = {}) {
  return (root: Node) => {
    let top = (root.children ?? []) as Node[];
    const first = top[0];
    if (first?.type === "heading" && first.depth === 1 && options.question !== undefined) top = top.slice(1);
    top = partialNotice(top, options.partial, options.partialNotice);
    root.children = top;

    const start = sourcesHeadingIndex(top, (n) => entryText(textOf(n)));
    const section = start < 0 ? [] : top.slice(start + 1);
    anchorEntries(section);
    const seen = new Map<number, number>();
    const next = (n: number) => {
      const k = seen.get(n) ?? 0;
      seen.set(n, k + 1);
      const list = options.verdicts?.get(n);
      return list?.[Math.min(k, list.length - 1)];
    };
    for (const node of start < 0 ? top : top.slice(0, start)) {
      if (!KEEP.has(node.type)) linkMarkers(node, next);
    }
    if (top.some((n) => n.type === "heading" && n.depth === 1)) for (const n of top) demote(n);
    headingIds(top);
  };
}
