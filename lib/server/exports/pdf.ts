/**
 * The report as a PDF, drawn on the server with pdfkit (no browser): the question as the title, the
 * date, the report's headings (each also an entry of the PDF's outline), paragraphs, lists, tables
 * and emphasis, each citation `[N]` a link to its entry in the Sources section, and that section
 * with each source's title, its URL as a link, and every claim citing it with its verdict and the
 * stored passage the verdict rests on.
 *
 * @internal to lib/server/exports/: a helper of its actions, not an action; adapters do not import it.
 */
import type { List, RootContent, Table } from "mdast";
import PDFDocument from "pdfkit";
import { fontFiles, fontFor, hasCjk, scriptPieces } from "./fonts.ts";
import { type ExportWords, shortPassage } from "./labels.ts";
import {
  type ExportDocument,
  type ExportSource,
  inlineRuns,
  plainText,
  runsText,
  type TextRun,
} from "./report-model.ts";

type Pdf = PDFKit.PDFDocument;

const BODY = 10.5;
const HEADING_SIZES = [0, 17, 14.5, 12.5, 11.5, 11, 10.5];
const INDENT = 16;
const MUTED = "#555555";
const LINK = "#1d4ed8";

export const sourceDestination = (n: number) => `source-${n}`;

interface Style {
  size?: number;
  color?: string;
  bold?: boolean;
  indent?: number;
}

/**
 * Writes runs as one flowing paragraph: each run (and each script within it) with its font, links
 * to the web for links, to the Sources entry for citations. Every option is given on every piece:
 * pdfkit carries a continued text's options over to the next piece.
 */
function writeRuns(pdf: Pdf, runs: readonly TextRun[], style: Style = {}): void {
  const left = pdf.page.margins.left + (style.indent ?? 0);
  const width = pdf.page.width - pdf.page.margins.right - left;
  // A hard line break is drawn as a space: pdfkit's continued text cannot start a line mid-paragraph.
  const pieces = runs.flatMap((run) =>
    scriptPieces(run.code ? run.text : run.text.replaceAll("\n", " ")).map(([text, cjk]) => ({
      run,
      text,
      cjk,
    })),
  );
  if (!pieces.length) return;
  pdf.x = left;
  pieces.forEach(({ run, text, cjk }, i) => {
    const linked = run.href !== undefined || run.citation !== undefined;
    pdf
      .font(fontFor(cjk, style.bold || run.bold, run.italic))
      .fontSize(run.citation ? (style.size ?? BODY) * 0.85 : (style.size ?? BODY))
      .fillColor(linked ? LINK : run.code ? "#7c2d12" : (style.color ?? "black"));
    pdf.text(text, left, undefined, {
      width,
      continued: i < pieces.length - 1,
      link: run.href ?? null,
      goTo: run.citation !== undefined ? sourceDestination(run.citation) : null,
      underline: run.href !== undefined,
      strike: Boolean(run.strike),
      destination: null,
      lineGap: 2,
      // null, not undefined: pdfkit's types have no null, but only null stops a carried-over link.
    } as unknown as PDFKit.Mixins.TextOptions);
  });
  pdf.fillColor("black");
}

/** Starts a new page when fewer than `room` points are left, so a heading is not left at a page foot. */
function keepRoom(pdf: Pdf, room: number): void {
  if (pdf.y + room > pdf.page.height - pdf.page.margins.bottom) pdf.addPage();
}

function list(pdf: Pdf, node: List, depth: number): void {
  node.children.forEach((item, i) => {
    const bullet = node.ordered
      ? `${(node.start ?? 1) + i}. `
      : item.checked != null
        ? item.checked
          ? "☑ "
          : "☐ "
        : "• ";
    item.children.forEach((child, j) => {
      if (child.type === "paragraph") {
        const runs = inlineRuns(child.children);
        writeRuns(pdf, j === 0 ? [{ text: bullet }, ...runs] : runs, { indent: INDENT * (depth + 1) });
        pdf.moveDown(0.2);
      } else if (child.type === "list") list(pdf, child, depth + 1);
      else block(pdf, child, depth + 1);
    });
  });
}

function table(pdf: Pdf, node: Table): void {
  // GFM lets a row have fewer cells than the header; pdfkit's table wants every row complete.
  const width = Math.max(...node.children.map((row) => row.children.length));
  const data = node.children.map((row, r) =>
    [...row.children, ...Array(width - row.children.length).fill({ children: [] })].map((cell) => {
      const text = runsText(inlineRuns(cell.children));
      return {
        text,
        type: r === 0 ? ("TH" as const) : ("TD" as const),
        font: { src: fontFor(hasCjk(text), r === 0), size: 9 },
      };
    }),
  );
  pdf.x = pdf.page.margins.left;
  pdf.table({ data });
  pdf.moveDown(0.5);
}

/** One block of the report (or of a list item or quote, `depth` levels in). */
function block(pdf: Pdf, node: RootContent, depth = 0): void {
  switch (node.type) {
    case "heading": {
      const text = plainText(node).trim();
      keepRoom(pdf, 60);
      pdf.moveDown(0.6);
      outlineEntry(pdf, node.depth, text);
      writeRuns(pdf, inlineRuns(node.children), { size: HEADING_SIZES[node.depth], bold: true });
      pdf.moveDown(0.3);
      return;
    }
    case "paragraph":
      writeRuns(pdf, inlineRuns(node.children), { indent: INDENT * depth });
      pdf.moveDown(0.5);
      return;
    case "list":
      list(pdf, node, depth);
      pdf.moveDown(0.3);
      return;
    case "table":
      table(pdf, node);
      return;
    case "blockquote":
      for (const child of node.children) {
        if (child.type === "paragraph")
          writeRuns(pdf, inlineRuns(child.children), { indent: INDENT * (depth + 1), color: MUTED });
        else block(pdf, child, depth + 1);
        pdf.moveDown(0.4);
      }
      return;
    case "code":
      writeRuns(pdf, [{ text: node.value, code: true }], { size: 9, indent: INDENT * (depth + 1) });
      pdf.moveDown(0.5);
      return;
    case "thematicBreak": {
      const y = pdf.y + 4;
      pdf
        .moveTo(pdf.page.margins.left, y)
        .lineTo(pdf.page.width - pdf.page.margins.right, y)
        .stroke("#cccccc");
      pdf.moveDown(1);
      return;
    }
    default:
      // html (never drawn: the report is untrusted), definitions, footnote definitions
      return;
  }
}

/** Each document's open outline entries, one per heading level above the current heading. */
const outlines = new WeakMap<Pdf, { depth: number; item: PDFKit.PDFOutline }[]>();

/** The outline (bookmarks): each heading under the nearest heading above it of a lower level. */
function outlineEntry(pdf: Pdf, depth: number, title: string): void {
  const stack = outlines.get(pdf) ?? [];
  outlines.set(pdf, stack);
  while (stack.length && (stack.at(-1)?.depth ?? 0) >= depth) stack.pop();
  const parent = stack.at(-1)?.item ?? pdf.outline;
  stack.push({ depth, item: parent.addItem(title) });
}

function sourceEntry(pdf: Pdf, source: ExportSource, recordedElsewhere: boolean, words: ExportWords): void {
  keepRoom(pdf, 50);
  pdf.addNamedDestination(sourceDestination(source.number), "XYZ", pdf.page.margins.left, pdf.y, null);
  writeRuns(pdf, [{ text: `[${source.number}] ` }, { text: source.title, bold: true }]);
  const href = /^(?:https?:\/\/|mailto:)/i.test(source.url) ? source.url : undefined;
  writeRuns(pdf, [{ text: source.url, href }], { size: 9 });
  let lastPassage: string | null = null;
  for (const claim of source.claims) {
    pdf.moveDown(0.2);
    writeRuns(
      pdf,
      [
        { text: `${words.verdict(claim.support, recordedElsewhere)}: `, bold: true },
        { text: claim.sentence },
      ],
      {
        size: 9,
        indent: INDENT,
      },
    );
    if (claim.passage && claim.passage !== lastPassage) {
      writeRuns(
        pdf,
        [{ text: `${words.passage}: `, italic: true }, { text: `“${shortPassage(claim.passage)}”` }],
        {
          size: 8.5,
          indent: INDENT,
          color: MUTED,
        },
      );
    }
    lastPassage = claim.passage;
  }
  pdf.moveDown(0.7);
}

function header(pdf: Pdf, doc: ExportDocument): void {
  writeRuns(pdf, [{ text: doc.question }], { size: 20, bold: true });
  pdf.moveDown(0.3);
  writeRuns(pdf, [{ text: doc.words.dateLine(doc.date) }], { size: 9, color: MUTED });
  if (doc.partial) writeRuns(pdf, [{ text: doc.words.partial }], { size: 9, color: MUTED });
  if (doc.recordedElsewhere)
    writeRuns(pdf, [{ text: doc.words.recordedElsewhere }], { size: 9, color: MUTED });
  pdf.moveDown(1);
}

/** The PDF's bytes (a report is a few hundred kilobytes at most; its glyphs only are embedded). */
export function renderPdf(doc: ExportDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: "A4",
    margin: 56,
    pdfVersion: "1.7",
    lang: hasCjk(doc.question) ? "zh" : undefined,
    displayTitle: true,
    info: { Title: doc.question, Creator: "Deep Research", CreationDate: doc.date },
  });
  for (const [name, bytes] of fontFiles()) pdf.registerFont(name, bytes);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on("data", (c: Buffer) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
  header(pdf, doc);
  for (const node of doc.blocks) block(pdf, node);
  if (doc.sources.length) {
    keepRoom(pdf, 80);
    pdf.moveDown(0.6);
    outlineEntry(pdf, 2, doc.words.sources);
    writeRuns(pdf, [{ text: doc.words.sources }], { size: HEADING_SIZES[2], bold: true });
    pdf.moveDown(0.4);
    for (const source of doc.sources) sourceEntry(pdf, source, Boolean(doc.recordedElsewhere), doc.words);
  }
  pdf.end();
  return done;
}
