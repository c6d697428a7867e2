/**
 * Does the cited source's stored text support the sentence that cites it? A cheap lexical
 * pre-check settles the clear cases (a verbatim quote; most content words and every number of the
 * sentence occur in the source; no overlap is NOT settled here: the report may translate its source); the rest go to batched structured calls
 * (summarization role) with the sentence and the most relevant excerpts of the source, up to the
 * run's `maxCitationChecks`. Nothing here fails the run: a citation the model cannot judge is
 * recorded as `unchecked` with the reason.
 */
import { z } from "zod";
import { log } from "../../telemetry/log.ts";
import type { Because } from "../because.ts";
import { recordDegradation } from "../degradations.ts";
import type { EngineDeps } from "../deps.ts";
import { throwIfAborted } from "../errors.ts";
import { boundedText, wholeNumber } from "../model-output.ts";
import {
  type CitationCheckItem,
  citationCheckInstructions,
  citationCheckPrompt,
} from "../prompts/citation-check.ts";
import type { CitationRecord, SourceRecord } from "../store.ts";
import { type CitationSupport, citationSupports } from "../vocabulary.ts";
import type { ReportCitation } from "./citations/index.ts";
import {
  checkFailedReason,
  modelReason,
  overBudgetReason,
  overlapReason,
  verdictReasons,
} from "./verdict-reasons.ts";

export type SupportVerdict = CitationSupport;

export type SupportCounts = Record<SupportVerdict, number>;

export interface SupportResult {
  records: CitationRecord[];
  counts: SupportCounts;
  /** Found supported by the lexical pre-check alone. */
  lexicallySupported: number;
  /** Settled (either way) by the lexical pre-check, without a model call. */
  lexicallySettled: number;
  /** Sent to the model (judged or, when the call failed, unchecked). */
  sentToModel: number;
}

export interface LexicalCheck {
  verdict: "supported" | "uncertain" | "no_overlap";
  /** Share of the sentence's content terms found in the source (0–1). */
  overlap: number;
  terms: number;
}

/** Items per batched call and excerpt size: keep each call well inside small context windows. */
const MAX_MODEL_ITEMS = 40;
const EXCERPT_CHARS = 1000;
const CLEAR_OVERLAP = 0.7;
const MAX_REASON_CHARS = 500;

const STOPWORDS = new Set(
  (
    "the and for are but not you all any can had her was one our out has have been were their there this that " +
    "these those with from into than then them they what when where which while who whom why how also such " +
    "more most other some only very about after before over under between through during each both few its " +
    "may might must shall should would could will upon per via among within without however therefore thus " +
    "der die das und ist sind ein eine einer eines dem den des mit von für auf nicht auch als bei nach wie " +
    "les des une est sont avec pour par dans sur pas plus que qui aux ces del los las una con por para que " +
    "como más sus este esta"
  ).split(" "),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Content terms of a text: stemmed words (prefix of 6), character bigrams for CJK, and numbers. */
export function contentTerms(text: string): { words: Set<string>; numbers: Set<string> } {
  const words = new Set<string>();
  const numbers = new Set<string>();
  const lower = text.normalize("NFKC").toLowerCase();
  for (const m of lower.matchAll(/\d+(?:[.,]\d+)*/g)) numbers.add(m[0].replace(/[.,]/g, ""));
  for (const m of lower.matchAll(/\p{L}[\p{L}\p{M}'’-]*/gu)) {
    const w = m[0].replace(/['’-]+$/, "");
    if (CJK.test(w)) {
      for (let i = 0; i + 1 < w.length; i++) words.add(w.slice(i, i + 2));
      continue;
    }
    if (w.length < 3 || STOPWORDS.has(w)) continue;
    words.add(w.length > 6 ? w.slice(0, 6) : w);
  }
  return { words, numbers };
}

type Terms = ReturnType<typeof contentTerms>;

function lexicalFromTerms(sentence: Terms, source: Terms): LexicalCheck {
  const terms = sentence.words.size + sentence.numbers.size;
  let hits = 0;
  for (const w of sentence.words) if (source.words.has(w)) hits++;
  let numbersFound = 0;
  for (const n of sentence.numbers) if (source.numbers.has(n)) numbersFound++;
  hits += numbersFound;
  const overlap = terms ? hits / terms : 0;
  if (hits === 0) return { verdict: "no_overlap", overlap: 0, terms };
  const allNumbers = numbersFound === sentence.numbers.size;
  const clear = terms >= 4 && overlap >= CLEAR_OVERLAP && allNumbers;
  return { verdict: clear ? "supported" : "uncertain", overlap, terms };
}

/** The lexical pre-check on its own (exported for tests and tuning). */
export function lexicalSupport(sentence: string, sourceText: string): LexicalCheck {
  return lexicalFromTerms(contentTerms(sentence), contentTerms(sourceText));
}

/** A source's text cut into windows of about 350 characters, each with its content terms. */
export interface ExcerptWindows {
  text: string;
  windows: { start: number; text: string; terms: Terms }[];
}

/** The windows relevantExcerpt scores; computed once per source, however often it is cited. */
export function excerptWindows(sourceText: string): ExcerptWindows {
  const text = sourceText.trim();
  const windows: ExcerptWindows["windows"] = [];
  let current = "";
  const push = () => {
    if (!current.trim()) return;
    windows.push({ start: windows.length, text: current.trim(), terms: contentTerms(current) });
    current = "";
  };
  for (const p of text.split(/(?<=[.!?。！？])\s+|\n+/).filter((piece) => piece.trim())) {
    if (current && current.length + p.length > 350) push();
    current += `${p} `;
  }
  push();
  return { text, windows };
}

/**
 * The passages of `sourceText` sharing most terms with `sentence`, in text order, within `maxChars`.
 * `source` may be the text's windows already cut (excerptWindows), as for a source cited many times.
 */
export function relevantExcerpt(
  source: string | ExcerptWindows,
  sentence: string,
  maxChars = EXCERPT_CHARS,
): string {
  const text = typeof source === "string" ? source.trim() : source.text;
  if (text.length <= maxChars) return text;
  const { windows } = typeof source === "string" ? excerptWindows(text) : source;
  const wanted = contentTerms(sentence);
  const scored = windows.map((w) => {
    let score = 0;
    for (const t of wanted.words) if (w.terms.words.has(t)) score++;
    for (const n of wanted.numbers) if (w.terms.numbers.has(n)) score += 2;
    return { ...w, score };
  });
  const best = scored
    .filter((w) => w.score > 0)
    .sort((a, b) => b.score - a.score || a.start - b.start)
    .slice(0, 3)
    .sort((a, b) => a.start - b.start);
  if (!best.length) return `${text.slice(0, maxChars - 1)}…`;
  let out = "";
  for (const w of best) {
    const piece = out ? `\n…\n${w.text}` : w.text;
    if (out.length + piece.length > maxChars) {
      if (!out) out = `${w.text.slice(0, maxChars - 1)}…`;
      break;
    }
    out += piece;
  }
  return out;
}

export const verdictSchema = z.object({
  verdicts: z.array(
    z.object({
      id: wholeNumber(),
      // The model judges; "unchecked" is ours for citations it never saw.
      verdict: z.enum(citationSupports).exclude(["unchecked"]),
      // Empty when the model gives none; a long one is cut.
      reason: boundedText(MAX_REASON_CHARS),
    }),
  ),
});

interface Verdict {
  support: SupportVerdict;
  /** In English, for the API; `because` says the same as data, for readers in other languages. */
  reason: string;
  because: Because | null;
  passage: string | null;
}

/** Sets a verdict's reason, in English and as data. */
function explain(verdict: Verdict, why: Pick<Verdict, "reason" | "because">): void {
  verdict.reason = why.reason;
  verdict.because = why.because;
}

interface PendingItem {
  index: number;
  item: CitationCheckItem;
}

/** The plain text of a sentence, folded for an exact-quote comparison. */
function folded(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[.!?。！？]+$/, "")
    .trim();
}

/** The lexical pre-check: settles exact quotes, clear overlaps and no overlap at all; undefined goes to the model. */
function lexicalVerdict(sentence: string, sentenceTerms: Terms, source: SourceRecord, terms: Terms) {
  const content = source.content ?? "";
  const quote = folded(sentence);
  if (quote.length >= 20 && folded(content).includes(quote)) {
    return { support: "supported" as const, ...verdictReasons.quoted };
  }
  const check = lexicalFromTerms(sentenceTerms, terms);
  const percent = Math.round(check.overlap * 100);
  if (check.verdict === "supported") {
    return { support: "supported" as const, ...overlapReason(percent) };
  }
  return undefined;
}

/**
 * One batched model call; verdicts by citation index. A failure (not a cancellation) leaves its
 * items unchecked and is returned; `stop` when the provider refused, so no more calls are made.
 */
async function judgeBatch(
  deps: EngineDeps,
  batch: readonly PendingItem[],
  verdicts: Verdict[],
): Promise<{ failure?: unknown; stop?: boolean }> {
  try {
    const result = await deps.models.object("summarization", {
      instructions: citationCheckInstructions(deps.config.reportLanguage),
      prompt: citationCheckPrompt(batch.map((p) => p.item)),
      schema: verdictSchema,
      schemaName: "citation_verdicts",
      abortSignal: deps.signal,
    });
    if (!result.ok) {
      for (const p of batch) explain(verdicts[p.index], verdictReasons.unreadable);
      return { failure: result.error };
    }
    const byItem = new Map(batch.map((p) => [p.item.id, p.index]));
    for (const v of result.value.verdicts) {
      const index = byItem.get(v.id);
      if (index === undefined) continue;
      verdicts[index].support = v.verdict;
      explain(verdicts[index], modelReason(v.verdict, v.reason));
    }
    for (const p of batch) {
      if (verdicts[p.index].support === "unchecked") explain(verdicts[p.index], verdictReasons.missing);
    }
    return {};
  } catch (error) {
    throwIfAborted(deps.signal);
    // A provider, budget or context-window failure: this batch and the rest stay unchecked, with the reason.
    const message = error instanceof Error ? error.message : String(error);
    log("engine").warn({ error: message }, "citation support check failed");
    const why = checkFailedReason(message);
    for (const p of batch) explain(verdicts[p.index], why);
    return { failure: error, stop: true };
  }
}

/** `compute` for each source once, by its id. */
function perSource<T>(compute: (s: SourceRecord) => T): (s: SourceRecord) => T {
  const done = new Map<string, T>();
  return (s) => {
    if (!done.has(s.id)) done.set(s.id, compute(s));
    return done.get(s.id) as T;
  };
}

/**
 * Judges EVERY citation against its source's stored text: the lexical pre-check first, the rest in
 * batches of MAX_MODEL_ITEMS up to `maxChecks` model-judged citations (the cost bound). Each record
 * says its verdict, why, and the passage it rests on; a citation left unchecked says why. Throws
 * only when the run is cancelled.
 */
export async function checkCitationSupport(deps: EngineDeps, input: SupportInput): Promise<SupportResult> {
  return judgeSupport(deps, planSupportCheck(deps, input));
}

type SupportInput = {
  citations: readonly ReportCitation[];
  sources: readonly SourceRecord[];
  maxChecks?: number;
};

/** The lexical pre-check's verdicts and the citations left for the model (within the budget). */
export interface SupportPlan {
  citations: readonly ReportCitation[];
  verdicts: Verdict[];
  /** The citations the model is asked about: none means the check makes no model call. */
  budgeted: PendingItem[];
  lexicallySupported: number;
  lexicallySettled: number;
}

/** The lexical pass of checkCitationSupport, without a model call: what is settled and what is not. */
export function planSupportCheck(deps: Pick<EngineDeps, "config">, input: SupportInput): SupportPlan {
  const maxChecks = input.maxChecks ?? deps.config.maxCitationChecks;
  const byId = new Map(input.sources.map((s) => [s.id, s]));
  // A source cited many times is cut into passages and reduced to terms once.
  const windowsOf = perSource((s) => excerptWindows(s.content ?? ""));
  const termsOf = perSource((s) => contentTerms(s.content ?? ""));

  const verdicts: Verdict[] = input.citations.map(() => ({
    support: "unchecked",
    reason: "",
    because: null,
    passage: null,
  }));
  const pending: PendingItem[] = [];
  let lexicallySupported = 0;
  let lexicallySettled = 0;
  input.citations.forEach((c, index) => {
    const source = byId.get(c.sourceId);
    if (!source?.content?.trim()) {
      explain(verdicts[index], verdictReasons.noText);
      return;
    }
    if (!c.sentence.trim()) {
      explain(verdicts[index], verdictReasons.noSentence);
      return;
    }
    const passage = relevantExcerpt(windowsOf(source), c.sentence);
    verdicts[index].passage = passage;
    const lexical = lexicalVerdict(c.sentence, contentTerms(c.sentence), source, termsOf(source));
    if (lexical) {
      verdicts[index] = { ...lexical, passage };
      lexicallySettled++;
      if (lexical.support === "supported") lexicallySupported++;
      return;
    }
    pending.push({
      index,
      item: {
        id: pending.length + 1,
        sentence: c.sentence,
        sourceTitle: source.title || source.url,
        excerpt: passage,
      },
    });
  });

  const budgeted = pending.slice(0, maxChecks);
  const overBudget = overBudgetReason(maxChecks);
  for (const p of pending.slice(maxChecks)) explain(verdicts[p.index], overBudget);
  return { citations: input.citations, verdicts, budgeted, lexicallySupported, lexicallySettled };
}

/** The model pass of checkCitationSupport over a plan's budgeted citations, then every record. */
export async function judgeSupport(deps: EngineDeps, plan: SupportPlan): Promise<SupportResult> {
  const { verdicts, budgeted, lexicallySupported, lexicallySettled } = plan;
  let sentToModel = 0;
  let failure: unknown;
  for (let i = 0; i < budgeted.length; i += MAX_MODEL_ITEMS) {
    const batch = budgeted.slice(i, i + MAX_MODEL_ITEMS);
    sentToModel += batch.length;
    const judged = await judgeBatch(deps, batch, verdicts);
    failure ??= judged.failure;
    if (judged.stop) {
      // The provider or budget refused: do not spend more calls on the rest.
      for (const p of budgeted.slice(i + MAX_MODEL_ITEMS))
        explain(verdicts[p.index], verdicts[batch[0].index]);
      break;
    }
  }
  if (failure !== undefined)
    await recordDegradation(deps, { step: "citation_check", role: "summarization", error: failure });

  const records: CitationRecord[] = plan.citations.map((c, i) => ({
    number: c.number,
    sourceId: c.sourceId,
    sentence: c.sentence,
    support: verdicts[i].support,
    reason: verdicts[i].reason,
    because: verdicts[i].because,
    passage: verdicts[i].passage,
  }));
  const counts: SupportCounts = { supported: 0, partially_supported: 0, unsupported: 0, unchecked: 0 };
  for (const v of verdicts) counts[v.support]++;
  return { records, counts, lexicallySupported, lexicallySettled, sentToModel };
}
