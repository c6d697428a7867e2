/**
 * A finished run as the engine would have stored it — report, sources with their text, citations
 * with verdicts and passages — generated (deterministically) to a given size, and written straight
 * into the database. The report page benchmark seeds these so it measures the page, not a run.
 */
import { collectCitedSentences } from "../../lib/research/report/citations/sentences.ts";
import { buildSourcesSection } from "../../lib/research/report/citations/source-list.ts";
import type { CitationSupport } from "../../lib/research/vocabulary.ts";

export interface GeneratedSource {
  url: string;
  normalizedUrl: string;
  title: string;
  domain: string;
  content: string;
}

export interface GeneratedCitation {
  number: number;
  /** Index into `sources` (source `number` is sources[number - 1]). */
  sourceIndex: number;
  sentence: string;
  support: CitationSupport;
  reason: string;
  /** A passage of the source's stored text. */
  passage: string;
}

export interface GeneratedReport {
  question: string;
  markdown: string;
  /** Words of the report body (without its Sources list). */
  words: number;
  sources: GeneratedSource[];
  citations: GeneratedCitation[];
  citationStats: Record<string, unknown>;
}

/** Small deterministic PRNG (mulberry32): the same seed gives the same report in every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  "Heat pumps",
  "District heating",
  "Grid operators",
  "Retrofit programmes",
  "Households",
  "Municipal utilities",
  "Installers",
  "Field trials",
  "National surveys",
  "Building codes",
];
const VERBS = ["reduced", "increased", "shifted", "stabilised", "doubled", "lowered", "improved", "delayed"];
const OBJECTS = [
  "winter peak demand",
  "annual energy bills",
  "carbon emissions per dwelling",
  "installation lead times",
  "the share of low-income adopters",
  "grid reinforcement costs",
  "indoor comfort scores",
  "maintenance call-outs",
  "seasonal performance factors",
];
const TAILS = [
  "across the monitored regions",
  "in the second heating season",
  "compared with gas boilers",
  "after subsidies were adjusted",
  "in older terraced housing",
  "when paired with smart tariffs",
  "according to the regulator's figures",
  "in the colder northern districts",
];

const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)];

function sentence(r: () => number): string {
  const pct = 5 + Math.floor(r() * 60);
  const year = 2015 + Math.floor(r() * 10);
  return `${pick(r, SUBJECTS)} ${pick(r, VERBS)} ${pick(r, OBJECTS)} by about ${pct} percent ${pick(r, TAILS)} between ${year} and ${year + 2}.`;
}

const wordCount = (text: string) => text.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;

function makeSource(i: number, r: () => number): GeneratedSource {
  const domain = `source-${i + 1}.example.org`;
  const url = `https://${domain}/studies/heating-${i + 1}`;
  const paragraphs = Array.from({ length: 12 }, () => Array.from({ length: 6 }, () => sentence(r)).join(" "));
  return {
    url,
    normalizedUrl: url,
    title: `${pick(r, SUBJECTS)} and ${pick(r, OBJECTS)}: study ${i + 1}`,
    domain,
    content: paragraphs.join("\n\n"),
  };
}

const VERDICTS: [CitationSupport, number, string][] = [
  ["supported", 0.7, "The passage states the figure."],
  ["partially_supported", 0.85, "The passage supports the direction, not the exact figure."],
  ["unsupported", 0.95, "The passage does not mention this."],
  ["unchecked", 1, "not checked: the source text was too short"],
];

/**
 * A report of about `words` words citing every one of `sourceCount` sources (numbers in reading
 * order, as the engine renumbers them), a citation after every sentence or two, with headings,
 * paragraphs and lists; its citations are the engine's own reading of the body (collectCitedSentences).
 */
export function generateReport(opts: { words: number; sources: number; seed?: number }): GeneratedReport {
  const r = prng(opts.seed ?? 1);
  const sources = Array.from({ length: opts.sources }, (_, i) => makeSource(i, r));
  const question = "How have heat pumps changed household heating costs and emissions?";
  // Spread first citations of new sources evenly over the body so every source is cited.
  const expectedCitations = Math.max(1, Math.round(opts.words / 32));
  let introduced = 0;
  let citationsMade = 0;
  const cite = () => {
    citationsMade++;
    const due = Math.ceil((citationsMade / expectedCitations) * opts.sources);
    if (introduced < opts.sources && (introduced < due || introduced === 0)) return ++introduced;
    return 1 + Math.floor(r() * Math.max(1, introduced));
  };
  const citedSentence = () => (r() < 0.6 ? `${sentence(r)} [${cite()}]` : sentence(r));
  const lines: string[] = [
    `# Heat pumps and household heating`,
    "",
    `${sentence(r)} ${sentence(r)} [${cite()}]`,
  ];
  let words = wordCount(lines.join(" "));
  for (let section = 1; words < opts.words; section++) {
    lines.push("", `## ${pick(r, SUBJECTS)}: finding ${section}`);
    for (let sub = 0; sub < 3 && words < opts.words; sub++) {
      const block: string[] = ["", `### ${pick(r, OBJECTS)} (${section}.${sub + 1})`, ""];
      block.push(Array.from({ length: 4 }, citedSentence).join(" "));
      if (sub === 1) block.push("", ...Array.from({ length: 3 }, () => `- ${citedSentence()}`));
      block.push("", Array.from({ length: 3 }, citedSentence).join(" "));
      lines.push(...block);
      words += wordCount(block.join(" "));
    }
  }
  // Sources a short body never reached are cited in a closing paragraph.
  const rest = Array.from({ length: opts.sources - introduced }, () => `${sentence(r)} [${++introduced}]`);
  if (rest.length) lines.push("", rest.join(" "));
  const body = lines.join("\n");
  const markdown = `${body}\n\n${buildSourcesSection(sources.map((s) => ({ ...s, readInFull: true })))}`;
  const citations = collectCitedSentences(body).map(({ number, sentence: s }) => {
    const source = sources[number - 1];
    const roll = r();
    const [support, , reason] = VERDICTS.find(([, upTo]) => roll < upTo) ?? VERDICTS[0];
    const start = Math.floor(r() * (source.content.length - 400));
    return {
      number,
      sourceIndex: number - 1,
      sentence: s,
      support,
      reason,
      passage: source.content.slice(start, start + 300),
    };
  });
  const count = (v: CitationSupport) => citations.filter((c) => c.support === v).length;
  const citationStats = {
    kept: citations.length,
    removedUnknown: 0,
    flattenedLinks: 0,
    correctedLinks: 0,
    strippedBibliography: false,
    citedSources: sources.length,
    supported: count("supported"),
    partially_supported: count("partially_supported"),
    unsupported: count("unsupported"),
    unchecked: count("unchecked"),
    marked: 0,
    removed: 0,
    linkCorrections: [],
  };
  return { question, markdown, words: wordCount(body), sources, citations, citationStats };
}
