/**
 * The report as a Word document (docx): the same content as the PDF, with each citation a footnote
 * naming its source (number, title, URL as a link, verdict) and a Sources section whose entries are
 * bookmarks the footnotes' numbers point to. Headings use Word's heading styles, so Word's
 * navigation pane and table of contents see them.
 *
 * @internal to lib/server/exports/: a helper of its actions, not an action; adapters do not import it.
 */
import {
  Bookmark,
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  InternalHyperlink,
  LevelFormat,
  Packer,
  Paragraph,
  type ParagraphChild,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from "docx";
import type { List, RootContent } from "mdast";
import { type ExportWords, shortPassage } from "./labels.ts";
import {
  type ExportDocument,
  type ExportSource,
  inlineRuns,
  type TextRun as Run,
  safeFileHref,
} from "./report-model.ts";

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;

const bookmarkOf = (n: number) => `source_${n}`;

/** What one document's drawing keeps: its footnotes and its ordered lists (each restarts at its own number). */
interface Drawing {
  sources: Map<number, ExportSource>;
  footnotes: Record<string, { children: Paragraph[] }>;
  nextFootnote: number;
  orderedLists: number;
  recordedElsewhere: boolean;
  words: ExportWords;
}

/** A citation's footnote: the source's number, title, URL (a link) and the claim's verdict. */
function footnoteFor(d: Drawing, n: number): Paragraph {
  const source = d.sources.get(n);
  if (!source) return new Paragraph({ children: [new TextRun(`[${n}]`)] });
  const verdicts = [...new Set(source.claims.map((c) => d.words.verdict(c.support, d.recordedElsewhere)))];
  const href = safeFileHref(source.url);
  return new Paragraph({
    children: [
      // The number links to the source's entry in the Sources section.
      new InternalHyperlink({ anchor: bookmarkOf(n), children: [new TextRun(`[${n}]`)] }),
      new TextRun(` ${source.title}. `),
      href
        ? new ExternalHyperlink({
            link: href,
            children: [new TextRun({ text: source.url, style: "Hyperlink" })],
          })
        : new TextRun(source.url),
      ...(verdicts.length ? [new TextRun(`. ${verdicts.join("; ")}.`)] : []),
    ],
  });
}

function paragraphChildren(d: Drawing, runs: readonly Run[]): ParagraphChild[] {
  return runs.map((run) => {
    if (run.citation !== undefined) {
      const id = d.nextFootnote++;
      d.footnotes[id] = { children: [footnoteFor(d, run.citation)] };
      return new FootnoteReferenceRun(id);
    }
    const text = new TextRun({
      text: run.text,
      bold: run.bold,
      italics: run.italic,
      strike: run.strike,
      font: run.code ? "Consolas" : undefined,
      break: run.text === "\n" ? 1 : undefined,
      style: run.href ? "Hyperlink" : undefined,
    });
    return run.href ? new ExternalHyperlink({ link: run.href, children: [text] }) : text;
  });
}

function listParagraphs(d: Drawing, node: List, level: number): (Paragraph | Table)[] {
  const instance = node.ordered ? ++d.orderedLists : 0;
  return node.children.flatMap((item) =>
    item.children.flatMap((child, j) => {
      if (child.type === "list") return listParagraphs(d, child, level + 1);
      if (child.type !== "paragraph" || j > 0) return blocks(d, child, level + 1);
      const children = paragraphChildren(d, inlineRuns(child.children));
      return [
        node.ordered
          ? new Paragraph({ children, numbering: { reference: "ordered", level, instance } })
          : new Paragraph({ children, bullet: { level } }),
      ];
    }),
  );
}

/** One Markdown block as Word paragraphs (or a table). */
function blocks(d: Drawing, node: RootContent, depth = 0): (Paragraph | Table)[] {
  const indent = depth ? { left: 360 * depth } : undefined;
  switch (node.type) {
    case "heading":
      return [
        new Paragraph({
          heading: HEADINGS[node.depth],
          children: paragraphChildren(d, inlineRuns(node.children)),
        }),
      ];
    case "paragraph":
      return [new Paragraph({ indent, children: paragraphChildren(d, inlineRuns(node.children)) })];
    case "list":
      return listParagraphs(d, node, depth);
    case "blockquote":
      return node.children.flatMap((child) =>
        child.type === "paragraph"
          ? [new Paragraph({ style: "Quote", children: paragraphChildren(d, inlineRuns(child.children)) })]
          : blocks(d, child, depth + 1),
      );
    case "code":
      return node.value
        .split("\n")
        .map((line) => new Paragraph({ indent, children: [new TextRun({ text: line, font: "Consolas" })] }));
    case "table":
      return [
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: node.children.map(
            (row, r) =>
              new TableRow({
                tableHeader: r === 0,
                children: row.children.map(
                  (cell) =>
                    new TableCell({
                      children: [
                        new Paragraph({
                          children: paragraphChildren(d, inlineRuns(cell.children, { bold: r === 0 })),
                        }),
                      ],
                    }),
                ),
              }),
          ),
        }),
        new Paragraph({}),
      ];
    case "thematicBreak":
      return [new Paragraph({ border: { bottom: { style: "single", size: 6, color: "CCCCCC", space: 1 } } })];
    default:
      return []; // raw HTML is never written (the report is untrusted), nor definitions
  }
}

function sourceParagraphs(d: Drawing, source: ExportSource): Paragraph[] {
  const href = safeFileHref(source.url);
  const out = [
    new Paragraph({
      spacing: { before: 200 },
      children: [
        new Bookmark({ id: bookmarkOf(source.number), children: [new TextRun(`[${source.number}] `)] }),
        new TextRun({ text: source.title, bold: true }),
      ],
    }),
    new Paragraph({
      children: [
        href
          ? new ExternalHyperlink({
              link: href,
              children: [new TextRun({ text: source.url, style: "Hyperlink" })],
            })
          : new TextRun(source.url),
      ],
    }),
  ];
  let lastPassage: string | null = null;
  for (const claim of source.claims) {
    out.push(
      new Paragraph({
        indent: { left: 360 },
        children: [
          new TextRun({ text: `${d.words.verdict(claim.support, d.recordedElsewhere)}: `, bold: true }),
          new TextRun(claim.sentence),
        ],
      }),
    );
    if (claim.passage && claim.passage !== lastPassage) {
      out.push(
        new Paragraph({
          indent: { left: 360 },
          children: [
            new TextRun({ text: `${d.words.passage}: `, italics: true }),
            new TextRun({ text: `“${shortPassage(claim.passage)}”`, color: "555555" }),
          ],
        }),
      );
    }
    lastPassage = claim.passage;
  }
  return out;
}

/** The DOCX file's bytes. */
export async function renderDocx(doc: ExportDocument): Promise<Buffer> {
  const d: Drawing = {
    sources: new Map(doc.sources.map((s) => [s.number, s])),
    footnotes: {},
    nextFootnote: 1,
    orderedLists: 0,
    recordedElsewhere: Boolean(doc.recordedElsewhere),
    words: doc.words,
  };
  const notes = [
    doc.words.dateLine(doc.date),
    ...(doc.partial ? [doc.words.partial] : []),
    ...(doc.recordedElsewhere ? [doc.words.recordedElsewhere] : []),
  ];
  const body = doc.blocks.flatMap((b) => blocks(d, b));
  const sources = doc.sources.length
    ? [
        new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(doc.words.sources)] }),
        ...doc.sources.flatMap((s) => sourceParagraphs(d, s)),
      ]
    : [];
  const file = new Document({
    title: doc.question,
    creator: "Deep Research",
    footnotes: d.footnotes,
    numbering: {
      config: [
        {
          reference: "ordered",
          levels: [0, 1, 2, 3, 4, 5].map((level) => ({
            level,
            format: LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            style: { paragraph: { indent: { left: 360 * (level + 1), hanging: 260 } } },
          })),
        },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(doc.question)] }),
          ...notes.map(
            (text) => new Paragraph({ children: [new TextRun({ text, color: "555555", size: 18 })] }),
          ),
          ...body,
          ...sources,
        ],
      },
    ],
  });
  return Packer.toBuffer(file);
}
