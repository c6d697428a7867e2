/**
 * What the model wrote about sources that we replace or check against the database: its own
 * bibliography (removed; the Sources section is built from stored sources instead), Markdown links
 * to pages that are not stored sources (flattened to text), and the local source list a researcher's
 * findings end with (read, so its numbers can be mapped onto the run-wide list).
 */

const URL_PATTERN = /[a-z][a-z0-9+.-]*:\/\/[^\s)<>\]"']+/i;

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
export const MARKDOWN_LINK =
  /(!?)\[((?:[^[\]\n]|\[[^[\]\n]*\])*)\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;

/**
 * Links to stored sources are kept; any other link, and every image, becomes its plain label. A
 * citation written as a link (`[3](url)`) becomes the marker of the stored source its URL names,
 * or a bare `[3]` when the URL is not a stored source. `sourceNumberOf` gives the number the model
 * cites a stored source by, undefined for a URL that is not one.
 */
export function flattenLinks(
  markdown: string,
  sourceNumberOf: (url: string) => number | undefined,
): { markdown: string; flattened: number } {
  let flattened = 0;
  const out = markdown.replace(MARKDOWN_LINK, (whole, image: string, label: string, url: string) => {
    const number = sourceNumberOf(url);
    if (!image && /^\s*\^?\d{1,4}\s*$/.test(label)) {
      // [3](url): a citation written as a link; the URL says which source is meant.
      if (number !== undefined) return `[${number}]`;
      flattened++;
      return `[${label.trim().replace(/^\^/, "")}]`;
    }
    if (number !== undefined && !image) return whole;
    flattened++;
    return label;
  });
  return { markdown: out, flattened };
}

// ---------------------------------------------------------------------------------------------
// Researchers' findings carry their own numbered source list (local number → URL).

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
