/**
 * A report as the file exports (PDF, DOCX) draw it: the report's Markdown parsed into its tree
 * (remark with GFM, the parser the report page renders with), the model's own Sources section left
 * out (the export writes its own, with verdicts and passages), and each inline piece of text as a
 * run with its emphasis, its link or its citation number. Both renderers walk the same blocks, so
 * the PDF and the DOCX say the same thing.
 *
 * @internal to lib/server/exports/: a helper of its actions, not an action; adapters do not import it.
 */
import type { PhrasingContent, Root, RootContent } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import type { CitationSupport } from "../../research/ui.ts";
import { CITATION_MARKER, entryText, parseCitationGroup, sourcesHeadingIndex } from "../../research/ui.ts";
import type { ExportWords } from "./labels.ts";

/** One claim a source is cited for, with the verdict and the stored passage it rests on. */
export interface ExportClaim {
  sentence: string;
  support: CitationSupport;
  passage: string | null;
}

/** One entry of the export's Sources section: the number the report's markers use. */
export interface ExportSource {
  number: number;
  title: string;
  url: string;
  domain: string;
  claims: ExportClaim[];
}

export interface ExportDocument {
  question: string;
  /** When the report was written (the run's end, else its start). */
  date: Date;
  partial: boolean;
  /** The report's blocks, without a leading H1 repeating the question and without its Sources. */
  blocks: RootContent[];
  sources: ExportSource[];
  /** Set on an imported run: the verdicts were recorded by another instance. */
  recordedElsewhere?: boolean;
  /** The words the export adds, in the report's language. */
  words: ExportWords;
}

/** A piece of inline text with the marks it carries. */
export interface TextRun {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  /** An http(s) or mailto URL the text links to. */
  href?: string;
  /** A citation marker: the number of its entry in the Sources section. */
  citation?: number;
}

const parser = unified().use(remarkParse).use(remarkGfm);

export function parseReport(markdown: string): Root {
  return parser.parse(markdown) as Root;
}

type AnyNode = { type: string; value?: string; children?: AnyNode[] };
export const plainText = (node: AnyNode): string =>
  node.value ?? (node.children ?? []).map(plainText).join("");

const folded = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * The blocks an export draws: the report up to its (last) `## Sources` heading, which the export
 * replaces with its own; a leading H1 that only repeats the question goes (the title says it).
 */
export function reportBlocks(markdown: string, question: string): RootContent[] {
  let blocks = parseReport(markdown).children;
  const first = blocks[0];
  if (first?.type === "heading" && first.depth === 1 && folded(plainText(first)) === folded(question)) {
    blocks = blocks.slice(1);
  }
  const sources = sourcesHeadingIndex(blocks, (n) => entryText(plainText(n)));
  return sources < 0 ? blocks : blocks.slice(0, sources);
}

/**
 * Only web and mail addresses become links in a file: a `javascript:` or `file:` link from a
 * fetched page's text would be a live action in a PDF reader.
 */
export function safeFileHref(url: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const trimmed = url.replace(/[\u0000-\u0020]+/g, "");
  return /^(?:https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : undefined;
}

type Marks = Omit<TextRun, "text" | "citation">;

/** A text node's words split around its citation markers (`[1]`, `[2, 3]` → `[2]` `[3]`). */
function citationRuns(text: string, marks: Marks): TextRun[] {
  const out: TextRun[] = [];
  let last = 0;
  for (const m of text.matchAll(new RegExp(CITATION_MARKER.source, "g"))) {
    const numbers = parseCitationGroup(m[1]);
    if (!numbers) continue;
    if (m.index > last) out.push({ ...marks, text: text.slice(last, m.index) });
    for (const n of numbers) out.push({ text: `[${n}]`, citation: n });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ ...marks, text: text.slice(last) });
  return out;
}

/** Inline Markdown as runs of text; raw HTML is dropped, an image stands as its alt text. */
export function inlineRuns(nodes: readonly PhrasingContent[], marks: Marks = {}): TextRun[] {
  return nodes.flatMap((node): TextRun[] => {
    switch (node.type) {
      case "text": {
        // A line end inside a paragraph is a space (Markdown's soft break).
        const text = node.value.replace(/[ \t]*\n[ \t]*/g, " ");
        return marks.href ? [{ ...marks, text }] : citationRuns(text, marks);
      }
      case "strong":
        return inlineRuns(node.children, { ...marks, bold: true });
      case "emphasis":
        return inlineRuns(node.children, { ...marks, italic: true });
      case "delete":
        return inlineRuns(node.children, { ...marks, strike: true });
      case "inlineCode":
        return [{ ...marks, text: node.value, code: true }];
      case "link": {
        const href = safeFileHref(node.url);
        return inlineRuns(node.children, href ? { ...marks, href } : marks);
      }
      case "linkReference":
        return inlineRuns(node.children, marks);
      case "image":
      case "imageReference":
        return [{ ...marks, text: node.alt || "image" }];
      case "break":
        return [{ ...marks, text: "\n" }];
      case "footnoteReference":
        return [{ ...marks, text: `[^${node.identifier}]` }];
      default:
        return [];
    }
  });
}

/** The words of runs, as a reader (or pdftotext) sees them. */
export const runsText = (runs: readonly TextRun[]) => runs.map((r) => r.text).join("");
