/**
 * The sentence each citation supports: the report is cut into blocks (paragraphs, list items, table
 * rows, headings) and each marker is paired with the sentence it closes or sits in. The support
 * check and the stored citations read these sentences.
 */
import { MARKDOWN_LINK } from "./bibliography.ts";
import { CITATION_MARKER, findMarkerRuns } from "./markers.ts";

const SENTENCE_END = /[.!?。！？](?:["'”’)\]]*)(?=\s|$)/g;
const BLOCK_START = /^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|>|\|)/;

/** Plain text of a sentence fragment: no markers, link syntax, emphasis or block markers. */
export function plainSentence(text: string): string {
  return text
    .replace(CITATION_MARKER, "")
    .replace(MARKDOWN_LINK, (_m, _img, label: string) => label)
    .replace(/\*\*|__|`/g, "")
    .replace(/(^|\s)[*_](\S)/g, "$1$2")
    .replace(/(\S)[*_](?=\s|[.,;:!?]|$)/g, "$1")
    .replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, "")
    .replace(/\s*\|\s*/g, " ")
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim()
    .slice(0, 1000);
}

interface Block {
  /** Offset of the block in the text. */
  start: number;
  /** The block exactly as written (a wrapped paragraph keeps its line breaks; sentences fold them). */
  text: string;
}

/** Blocks that sentences live in: list items, table rows and headings alone, wrapped paragraphs joined. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let current: { start: number; end: number } | undefined;
  const close = () => {
    if (current) blocks.push({ start: current.start, text: markdown.slice(current.start, current.end) });
    current = undefined;
  };
  let offset = 0;
  for (const line of markdown.split("\n")) {
    const lineStart = offset;
    offset += line.length + 1;
    if (/^\s*$/.test(line)) {
      close();
    } else if (
      current === undefined ||
      BLOCK_START.test(line) ||
      /^\s*#/.test(markdown.slice(current.start, current.end))
    ) {
      close();
      current = { start: lineStart, end: lineStart + line.length };
    } else {
      current.end = lineStart + line.length;
    }
  }
  close();
  return blocks;
}

function sentenceAround(block: string, start: number, end: number): string {
  // Table cells are sentences of their own.
  const cellStart = block.lastIndexOf("|", start - 1) + 1;
  const nextBar = block.indexOf("|", end);
  const cellEnd = nextBar === -1 ? block.length : nextBar;
  const left = block.slice(cellStart, start);
  const right = block.slice(end, cellEnd);
  const ends = [...left.matchAll(SENTENCE_END)].map((m) => m.index + m[0].length);
  const leftTrim = left.replace(/\s+$/, "");
  if (ends.length && ends.at(-1) === leftTrim.length) {
    // "… claim. [3]" — the marker follows the sentence it cites.
    const from = ends.length > 1 ? ends[ends.length - 2] : 0;
    return plainSentence(left.slice(from));
  }
  const from = ends.length ? ends[ends.length - 1] : 0;
  SENTENCE_END.lastIndex = 0;
  const next = SENTENCE_END.exec(right);
  const to = next ? next.index + next[0].length : right.length;
  return plainSentence(left.slice(from) + right.slice(0, to));
}

/** A citation run with its absolute position in the body and the sentence it supports. */
export interface CitedRun {
  start: number;
  end: number;
  numbers: number[];
  sentence: string;
}

/** Every citation run of a processed body, in reading order, with the sentence each supports. */
export function citedRuns(body: string): CitedRun[] {
  return blocksOf(body).flatMap((block) =>
    findMarkerRuns(block.text).map((run) => ({
      start: block.start + run.start,
      end: block.start + run.end,
      numbers: run.numbers,
      sentence: sentenceAround(block.text, run.start, run.end),
    })),
  );
}

/** Each `[N]` of a processed body with the sentence it supports; one entry per (number, sentence). */
export function collectCitedSentences(body: string): { number: number; sentence: string }[] {
  const out: { number: number; sentence: string }[] = [];
  const seen = new Set<string>();
  for (const run of citedRuns(body)) {
    for (const n of run.numbers) {
      const key = `${n}\u0000${run.sentence}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ number: n, sentence: run.sentence });
    }
  }
  return out;
}
