/**
 * Citation post-processing: after this, every `[N]` in a report resolves to a stored source that
 * has a text snapshot. Pure functions over Markdown text; the synthesis phase wires them in.
 *
 * The model cites by the numbers of the list it was given (source N = `numbered[N - 1]`). We map
 * those, renumber in reading order, drop what does not resolve, flatten links to pages we never
 * stored, strip any bibliography the model wrote, and append our own `## Sources` from the database.
 */
import type { SourceRecord } from "../store.ts";

export interface ReportCitation {
  /** The number in the processed report. */
  number: number;
  sourceId: string;
  /** The cited sentence as plain text (markers, links and emphasis removed). */
  sentence: string;
}

export interface CitationStats {
  /** Citation references kept (each number in each marker). */
  kept: number;
  /** References to numbers with no stored source, or to a source without a text snapshot. */
  removedUnknown: number;
  /** Markdown links (and images) to URLs that are not stored sources, turned into plain text. */
  flattenedLinks: number;
  strippedBibliography: boolean;
  /** Distinct sources in the Sources section. */
  citedSources: number;
}

export interface ProcessedReport {
  markdown: string;
  citations: ReportCitation[];
  stats: CitationStats;
}

// ---------------------------------------------------------------------------------------------
// Citation markers: [1], [1, 2], [1; 2], [1-3], [^1]; adjacent markers ([1][2], [1] [2]) form a run.

const GROUP =
  /(?<!\\)\[\^?\s*(\d{1,4}(?:\s*[-–—]\s*\d{1,4})?(?:\s*[,;]\s*\^?\d{1,4}(?:\s*[-–—]\s*\d{1,4})?)*)\s*\](?!\()/g;
/** A range longer than this is not a citation (think `[1990-2020]`): left as text. */
const MAX_RANGE = 30;

/** The numbers of one marker's inside, or undefined when it is not a citation. */
export function parseCitationGroup(inner: string): number[] | undefined {
  const out: number[] = [];
  for (const part of inner.split(/[,;]/)) {
    const m = part
      .trim()
      .replace(/^\^/, "")
      .match(/^(\d+)(?:\s*[-–—]\s*(\d+))?$/);
    if (!m) return undefined;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a || b - a > MAX_RANGE) return undefined;
    for (let n = a; n <= b; n++) out.push(n);
  }
  return out;
}

/** `[1][2][3]`: one bracket per number, the form every reader and checker understands. */
export function renderCitationMarkers(numbers: readonly number[]): string {
  return numbers.map((n) => `[${n}]`).join("");
}

interface MarkerRun {
  start: number;
  end: number;
  numbers: number[];
}

function findMarkerRuns(text: string): MarkerRun[] {
  const runs: MarkerRun[] = [];
  for (const m of text.matchAll(GROUP)) {
    const numbers = parseCitationGroup(m[1]);
    if (!numbers) continue;
    const start = m.index;
    const end = start + m[0].length;
    const prev = runs.at(-1);
    if (prev && /^[ \t]*$/.test(text.slice(prev.end, start))) {
      prev.end = end;
      prev.numbers.push(...numbers);
    } else {
      runs.push({ start, end, numbers });
    }
  }
  return runs;
}

/**
 * Rewrite every citation run through `map` (old numbers in written order → new numbers). An empty
 * result removes the run together with the space before it, so "claim [9]." becomes "claim.".
 */
export function rewriteCitationRuns(text: string, map: (numbers: number[]) => number[]): string {
  let out = "";
  let last = 0;
  for (const run of findMarkerRuns(text)) {
    const mapped = [...new Set(map(run.numbers))].sort((a, b) => a - b);
    let before = text.slice(last, run.start);
    let end = run.end;
    if (mapped.length === 0) {
      before = before.replace(/[ \t]+$/, "");
      // At the start of a line, also eat the space after, so the line does not start with a blank.
      if (before === "" || before.endsWith("\n")) end += text.slice(end).match(/^[ \t]*/)?.[0].length ?? 0;
    }
    out += before + renderCitationMarkers(mapped);
    last = end;
  }
  return out + text.slice(last);
}

// ---------------------------------------------------------------------------------------------
// URLs

const URL_PATTERN = /[a-z][a-z0-9+.-]*:\/\/[^\s)<>\]"']+/i;

/** A comparison key: scheme, `www.`, fragment, trailing slash and tracking parameters ignored. */
export function urlKey(url: string): string {
  const raw = url.trim();
  try {
    const u = new URL(raw);
    const host = u.host.toLowerCase().replace(/^www\./, "");
    const params = [...u.searchParams].filter(([k]) => !/^(utm_|fbclid$|gclid$)/i.test(k));
    params.sort(([a], [b]) => a.localeCompare(b));
    const search = params.length ? `?${new URLSearchParams(params).toString()}` : "";
    return `${host}${u.pathname.replace(/\/+$/, "")}${search}`;
  } catch {
    return raw
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, "")
      .replace(/\/+$/, "");
  }
}

/** Index of stored sources by URL key (both the URL as found and its normalised form). */
export function indexSourcesByUrl<S extends Pick<SourceRecord, "url" | "normalizedUrl">>(
  sources: readonly S[],
): Map<string, S> {
  const byKey = new Map<string, S>();
  for (const s of sources) {
    for (const u of [s.url, s.normalizedUrl]) {
      const key = urlKey(u);
      if (!byKey.has(key)) byKey.set(key, s);
    }
  }
  return byKey;
}

export function hasSnapshot(source: Pick<SourceRecord, "content">): boolean {
  return (source.content ?? "").trim().length > 0;
}

// ---------------------------------------------------------------------------------------------
// Code is left alone: citations and links inside code spans and fences are not ours to touch.

function protectCode(markdown: string): { text: string; restore: (s: string) => string } {
  const saved: string[] = [];
  // Private-use characters mark the spots: they never occur in model output.
  const keep = (m: string) => {
    saved.push(m);
    return `\uE000${saved.length - 1}\uE001`;
  };
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, keep).replace(/`[^`\n]+`/g, keep);
  const restore = (s: string) => s.replace(/\uE000(\d+)\uE001/g, (_, i) => saved[Number(i)] ?? "");
  return { text, restore };
}

// ---------------------------------------------------------------------------------------------
// Bibliographies the model wrote (we append the one built from the database instead)

const BIBLIOGRAPHY_TITLES = new Set([
  "sources",
  "source",
  "source list",
  "list of sources",
  "references",
  "reference",
  "reference list",
  "references and sources",
  "sources and references",
  "bibliography",
  "works cited",
  "citations",
  "sources cited",
  "cited sources",
  "cited works",
  "quellen",
  "quellenverzeichnis",
  "quellenangaben",
  "literatur",
  "literaturverzeichnis",
  "einzelnachweise",
  "références",
  "sources et références",
  "bibliographie",
  "referencias",
  "fuentes",
  "bibliografía",
  "fuentes y referencias",
  "fonti",
  "riferimenti",
  "bibliografia",
  "referências",
  "fontes",
  "bronnen",
  "referenties",
  "literatuur",
  "źródła",
  "источники",
  "литература",
  "список литературы",
  "参考文献",
  "参考资料",
  "来源",
  "出典",
  "참고문헌",
  "출처",
  "kaynaklar",
  "kaynakça",
]);

/** Whether a heading's text names a bibliography ("## 7. References:", "**Sources**"). */
export function isBibliographyTitle(title: string): boolean {
  const t = title
    .replace(/[*_`]/g, "")
    .replace(/^\s*(?:\d+[.)]\s*)+/, "")
    .replace(/[\s:：.]+$/, "")
    .trim()
    .toLowerCase();
  return BIBLIOGRAPHY_TITLES.has(t);
}

interface HeadingLine {
  /** 1–6 for `#` headings; 7 for a bold or bare line standing as a heading (ends at any heading). */
  level: number;
  title: string;
}

function headingOf(line: string): HeadingLine | undefined {
  const atx = line.match(/^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/);
  if (atx) return { level: atx[1].length, title: atx[2] };
  const bold = line.match(/^\s*(?:\*\*|__)(.+?)(?:\*\*|__)\s*:?\s*$/);
  if (bold) return { level: 7, title: bold[1] };
  const bare = line.match(/^\s*([^\s[#*].{0,40}?):\s*$/);
  if (bare) return { level: 7, title: bare[1] };
  return undefined;
}

// Only the bracketed form: a closing numbered list of links ("1. [Tool](url) does …") is content.
const ENTRY_LINE = /^\s*(?:[-*+]\s+)?\[\^?\d+\][:.]?\s+/;
const REF_DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*\S+.*$/;

/** Lines of a bare trailing sources list: `[1] Title — https://…`, `- [2] [Title](url)`. */
function isEntryLine(line: string): boolean {
  return ENTRY_LINE.test(line) && (URL_PATTERN.test(line) || /\]\([^)]*\)/.test(line));
}

/**
 * Removes bibliography sections (heading to the next heading of the same or a higher level),
 * reference-link definitions, and a trailing list of `[N] … URL` entries without a heading.
 */
export function stripBibliography(markdown: string): { markdown: string; stripped: boolean } {
  const lines = markdown.split("\n");
  const kept: string[] = [];
  let stripped = false;
  let skipUntilLevel: number | undefined;
  for (const line of lines) {
    const h = headingOf(line);
    if (skipUntilLevel !== undefined) {
      if (!h || h.level === 7 || h.level > skipUntilLevel || isBibliographyTitle(h.title)) continue;
      skipUntilLevel = undefined;
    }
    if (h && isBibliographyTitle(h.title)) {
      skipUntilLevel = h.level === 7 ? 6 : h.level;
      stripped = true;
      continue;
    }
    if (REF_DEFINITION.test(line)) {
      stripped = true;
      continue;
    }
    kept.push(line);
  }
  // A bare trailing list of entries (blank lines and rules between them allowed).
  let end = kept.length;
  while (end > 0 && /^\s*$/.test(kept[end - 1])) end--;
  let cut = end;
  while (cut > 0 && (isEntryLine(kept[cut - 1]) || /^\s*$/.test(kept[cut - 1]))) cut--;
  if (cut < end && kept.slice(cut, end).some(isEntryLine)) {
    kept.length = cut;
    stripped = true;
  }
  // Rules and blank lines the removed section leaves dangling at the end.
  while (kept.length && /^\s*(?:-{3,}|\*{3,}|_{3,})?\s*$/.test(kept[kept.length - 1])) kept.pop();
  return { markdown: kept.join("\n"), stripped };
}

// ---------------------------------------------------------------------------------------------
// Links

// [text](url "title") with one level of nested brackets in the text and balanced parentheses in the URL.
const LINK =
  /(!?)\[((?:[^[\]\n]|\[[^[\]\n]*\])*)\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;

// ---------------------------------------------------------------------------------------------
// Sentences

const SENTENCE_END = /[.!?。！？](?:["'”’)\]]*)(?=\s|$)/g;
const BLOCK_START = /^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|>|\|)/;

/** Plain text of a sentence fragment: no markers, link syntax, emphasis or block markers. */
export function plainSentence(text: string): string {
  return text
    .replace(GROUP, "")
    .replace(LINK, (_m, _img, label: string) => label)
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

/** Blocks that sentences live in: list items, table rows and headings alone, wrapped paragraphs joined. */
function blocksOf(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string | undefined;
  for (const line of markdown.split("\n")) {
    if (/^\s*$/.test(line)) {
      if (current !== undefined) blocks.push(current);
      current = undefined;
    } else if (current === undefined || BLOCK_START.test(line) || /^\s*#/.test(current)) {
      if (current !== undefined) blocks.push(current);
      current = line;
    } else {
      current += ` ${line.trim()}`;
    }
  }
  if (current !== undefined) blocks.push(current);
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

/** Each `[N]` of a processed body with the sentence it supports; one entry per (number, sentence). */
export function collectCitedSentences(body: string): { number: number; sentence: string }[] {
  const out: { number: number; sentence: string }[] = [];
  const seen = new Set<string>();
  for (const block of blocksOf(body)) {
    for (const run of findMarkerRuns(block)) {
      const sentence = sentenceAround(block, run.start, run.end);
      for (const n of run.numbers) {
        const key = `${n}\u0000${sentence}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ number: n, sentence });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The Sources section

function escapeLinkText(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/([[\]\\])/g, "\\$1")
    .trim();
}

function escapeLinkUrl(url: string): string {
  return url.trim().replace(/ /g, "%20").replace(/\(/g, "%28").replace(/\)/g, "%29");
}

/** `## Sources` with one `[N] [Title](URL)` paragraph per source, in the given order (N = index + 1). */
export function buildSourcesSection(
  sources: readonly Pick<SourceRecord, "title" | "url" | "domain">[],
): string {
  const lines = sources.map((s, i) => {
    const title = escapeLinkText(s.title) || escapeLinkText(s.domain) || escapeLinkText(s.url);
    return `[${i + 1}] [${title}](${escapeLinkUrl(s.url)})`;
  });
  // Blank lines between entries: each is its own paragraph when rendered.
  return `## Sources\n\n${lines.join("\n\n")}\n`;
}

// ---------------------------------------------------------------------------------------------
// The whole post-processing step

/**
 * Process a report the model wrote citing `numbered` (source N = `numbered[N - 1]`). Sources
 * without a text snapshot cannot be cited: a reference to one counts as unknown and is removed.
 */
export function processReportCitations(markdown: string, numbered: readonly SourceRecord[]): ProcessedReport {
  const { text: protectedText, restore } = protectCode(markdown.replace(/\r\n?/g, "\n"));
  const bib = stripBibliography(protectedText);
  const byUrl = indexSourcesByUrl(numbered);
  const modelNumberOf = new Map(numbered.map((s, i) => [s.id, i + 1]));

  let flattenedLinks = 0;
  const withLinks = bib.markdown.replace(LINK, (whole, image: string, label: string, url: string) => {
    const source = byUrl.get(urlKey(url));
    if (!image && /^\s*\^?\d{1,4}\s*$/.test(label)) {
      // [3](url): a citation written as a link; the URL says which source is meant.
      if (source) return `[${modelNumberOf.get(source.id)}]`;
      flattenedLinks++;
      return `[${label.trim().replace(/^\^/, "")}]`;
    }
    if (source && !image) return whole;
    flattenedLinks++;
    return label;
  });

  const newNumberOf = new Map<number, number>();
  const cited: SourceRecord[] = [];
  let kept = 0;
  let removedUnknown = 0;
  const body = rewriteCitationRuns(withLinks, (numbers) => {
    const out: number[] = [];
    for (const n of numbers) {
      const source = numbered[n - 1];
      if (!source || !hasSnapshot(source)) {
        removedUnknown++;
        continue;
      }
      let assigned = newNumberOf.get(n);
      if (assigned === undefined) {
        assigned = cited.length + 1;
        newNumberOf.set(n, assigned);
        cited.push(source);
      }
      kept++;
      out.push(assigned);
    }
    return out;
  }).replace(/\s+$/, "");

  const citations = collectCitedSentences(body).map(({ number, sentence }) => ({
    number,
    sourceId: cited[number - 1].id,
    sentence: restore(sentence),
  }));
  const finalBody = restore(body);
  const markdownOut = cited.length ? `${finalBody}\n\n${buildSourcesSection(cited)}` : `${finalBody}\n`;
  return {
    markdown: markdownOut,
    citations,
    stats: {
      kept,
      removedUnknown,
      flattenedLinks,
      strippedBibliography: bib.stripped,
      citedSources: cited.length,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Researchers' findings use their own local numbering; these map it onto the run-wide list.

/**
 * The numbered source list a researcher's findings carry (local number → URL), and the findings
 * without it. Looks in a sources/references section first; otherwise takes `[k] … URL` lines.
 */
export function parseLocalSourceList(findings: string): { urls: Map<number, string>; body: string } {
  const urls = new Map<number, string>();
  const lines = findings.replace(/\r\n?/g, "\n").split("\n");
  const body: string[] = [];
  let inList: number | undefined;
  let sawSection = false;
  const entry = (line: string) => {
    const m = line.match(/^\s*(?:[-*+]\s+)?(?:\[\^?(\d+)\]|(\d+)[.)])[:.]?\s+(.*)$/);
    if (!m) return false;
    const url = m[3].match(/\]\(\s*<?([^)\s>]+)/)?.[1] ?? m[3].match(URL_PATTERN)?.[0];
    if (!url) return false;
    const k = Number(m[1] ?? m[2]);
    if (!urls.has(k)) urls.set(k, url.replace(/[.,;]+$/, ""));
    return true;
  };
  for (const line of lines) {
    const h = headingOf(line);
    if (inList !== undefined) {
      if (h && h.level !== 7 && h.level <= inList && !isBibliographyTitle(h.title)) inList = undefined;
      else {
        entry(line);
        continue;
      }
    }
    if (h && isBibliographyTitle(h.title)) {
      inList = h.level === 7 ? 6 : h.level;
      sawSection = true;
      continue;
    }
    body.push(line);
  }
  if (sawSection) return { urls, body: body.join("\n").trimEnd() };
  // No section: bracketed entry lines anywhere are the list.
  const rest = body.filter((line) => !(/^\s*(?:[-*+]\s+)?\[\^?\d+\]/.test(line) && entry(line)));
  return { urls, body: rest.join("\n").trimEnd() };
}

/** Rewrites local `[k]` to run-wide numbers; references that do not map are removed and counted. */
export function renumberLocalCitations(
  text: string,
  toGlobal: (local: number) => number | undefined,
): { text: string; mapped: number; dropped: number } {
  let mapped = 0;
  let dropped = 0;
  const out = rewriteCitationRuns(text, (numbers) =>
    numbers.flatMap((k) => {
      const g = toGlobal(k);
      if (g === undefined) {
        dropped++;
        return [];
      }
      mapped++;
      return [g];
    }),
  );
  return { text: out, mapped, dropped };
}

/** Every `[N]` number in a text (for checks: each must resolve to a Sources entry). */
export function citationNumbersIn(text: string): number[] {
  return findMarkerRuns(text).flatMap((r) => r.numbers);
}
