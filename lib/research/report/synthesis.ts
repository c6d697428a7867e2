/**
 * SYNTHESIS: the report. One streamed `synthesis` call writes it from the brief and every
 * directive's findings (each researcher's local [k] rewritten to the run-wide source numbers);
 * citations are post-processed so every [N] resolves to a stored source with a text snapshot; each
 * cited sentence is checked against its source. A context-window overflow is recovered by cutting
 * the findings (token-recovery.ts); when that fails too, a partial report is assembled from the
 * findings that fit, without a model, and marked as partial.
 */

import type { Because, RunFailureCode } from "../because.ts";
import type { EngineDeps } from "../deps.ts";
import { type EventSink, emitAll, type ReportCitationVerdict, type StoredEvent } from "../events.ts";
import { reportLanguageOf } from "../language.ts";
import {
  formatFindingsBlock,
  omittedFindingsNote,
  synthesisInstructions,
  synthesisPrompt,
} from "../prompts/synthesis.ts";
import type { CitationRecord, DirectiveRecord, DirectiveSourceRecord, SourceRecord } from "../store.ts";
import {
  type CitationStats,
  type LinkCorrection,
  type ProcessedReport,
  processReportCitations,
} from "./citations/index.ts";
import { buildSourcesSection } from "./citations/source-list.ts";
import { markCitationVerdicts } from "./citations/verdict-marks.ts";
import { citableSources, type FindingsItem, prepareFindings } from "./findings.ts";
import { type ContextWindowTable, loadContextWindows } from "./model-context.ts";
import { judgeSupport, planSupportCheck, type SupportCounts } from "./support.ts";
import { withTokenRecovery } from "./token-recovery.ts";
import { handledReason, verdictReasons } from "./verdict-reasons.ts";
import { failedBecause, type ReportWords, reportWords } from "./words/index.ts";

export interface ReportInput {
  question: string;
  brief: string;
  directives: DirectiveRecord[];
  findings: { directiveId: string; findings: string }[];
  sources: SourceRecord[];
  /** Each directive's sources in stored order, when the caller has them; otherwise they are read. */
  directiveSources?: ReadonlyMap<string, DirectiveSourceRecord[]>;
  /**
   * The owner asked for the report before the research ended (POST /api/runs/:id/finish): it is
   * written from what was gathered, says so at the top, and is stored as partial.
   */
  writtenEarly?: boolean;
}

export type ReportCitationStats = CitationStats &
  SupportCounts & { marked: number; removed: number; linkCorrections: LinkCorrection[] };

export interface ReportOutcome {
  markdown: string;
  partial: boolean;
  citationStats: ReportCitationStats;
}

export interface WriteReportOptions {
  /** Context sizes for token recovery; default: the built-in table with MODEL_CONTEXT_WINDOWS applied. */
  contextWindows?: ContextWindowTable;
}

/**
 * Streams report text as `report.delta` events without blocking the model stream: deltas that
 * arrive while an event is being sent are sent together next, in order.
 */
function deltaStreamer(events: EventSink) {
  let buffer = "";
  let inflight: Promise<void> | undefined;
  const pump = async () => {
    while (buffer) {
      const text = buffer;
      buffer = "";
      try {
        await events.emit({ type: "report.delta", text });
      } catch {
        // Deltas are transient and best-effort; the stored report is what counts.
      }
    }
    inflight = undefined;
  };
  return {
    push(delta: string) {
      buffer += delta;
      inflight ??= pump();
    },
    async flush() {
      while (inflight) await inflight;
    },
  };
}

/** A directive's topic as a heading: its first sentence, kept short. */
function topicHeading(topic: string): string {
  const first =
    topic
      .replace(/\s+/g, " ")
      .trim()
      .split(/(?<=[.!?])\s/)[0] ?? "";
  if (first.length <= 120) return first.replace(/[.:]$/, "");
  return `${first.slice(0, 117).replace(/\s+\S*$/, "")}…`;
}

/** Findings' own headings sit below the partial report's `##` sections. */
function demoteHeadings(text: string): string {
  return text.replace(/^(#{1,6})(?=\s)/gm, (h) => "#".repeat(Math.min(6, h.length + 2)));
}

/**
 * A report assembled from findings without a model, clearly marked as partial. Its citations
 * already use the run-wide numbers, so it goes through the same post-processing as a written one.
 */
export function partialReportMarkdown(opts: {
  question: string;
  note: string;
  items: readonly Pick<FindingsItem, "topic" | "text">[];
  words: ReportWords;
}): string {
  const parts = [`# ${opts.question.replace(/\s+/g, " ").trim()}`, "", partialNotice(opts.words, opts.note)];
  for (const item of opts.items) {
    parts.push("", `## ${topicHeading(item.topic)}`, "", demoteHeadings(item.text.trim()));
  }
  if (!opts.items.length) parts.push("", opts.words.noFindings);
  return parts.join("\n");
}

/** The report with unsupported citations marked (or removed, strict) and its Sources list. */
function actOnVerdicts(
  processed: ProcessedReport,
  records: readonly CitationRecord[],
  strict: boolean,
  words: ReportWords,
) {
  const verdicts = new Map(records.map((r) => [`${r.number}\u0000${r.sentence}`, r.support]));
  const marks = markCitationVerdicts(
    processed.body,
    (n, sentence) => verdicts.get(`${n}\u0000${sentence}`),
    strict,
  );
  const markdown = processed.cited.length
    ? `${marks.markdown}\n\n${buildSourcesSection(processed.cited, words)}`
    : `${marks.markdown}\n`;
  const acted = records.map((r) => (r.support === "unsupported" ? handledReason(r, strict) : r));
  return { markdown, records: acted, marked: marks.marked, removed: marks.removed };
}

/**
 * Runs `work` while `pending` (writes started earlier) completes; returns once both are done. A
 * failed write wins over the work's result, and neither failure is left unobserved.
 */
async function settledAfter<T>(pending: Promise<void>, work: () => Promise<T>): Promise<T> {
  const [written, done] = await Promise.allSettled([pending, work()]);
  if (written.status === "rejected") throw written.reason;
  if (done.status === "rejected") throw done.reason;
  return done.value;
}

/** A stored citation as the run's JSON shows it: its verdict and reason, not its passage. */
function verdictOf(c: CitationRecord): ReportCitationVerdict {
  return {
    number: c.number,
    sourceId: c.sourceId,
    sentence: c.sentence,
    support: c.support,
    reason: c.reason ?? null,
    because: c.because ?? null,
  };
}

async function finishReport(
  deps: EngineDeps,
  opts: {
    markdown: string;
    partial: boolean;
    numbered: SourceRecord[];
    checkSupport: boolean;
    question: string;
  },
): Promise<ReportOutcome> {
  const words = wordsOf(deps, opts.question);
  const processed: ProcessedReport = processReportCitations(opts.markdown, opts.numbered, words);
  const unchecked: SupportCounts = {
    supported: 0,
    partially_supported: 0,
    unsupported: 0,
    unchecked: processed.citations.length,
  };
  const notChecked = opts.checkSupport ? verdictReasons.notCheckedYet : verdictReasons.noModel;
  const linkCorrections = processed.linkCorrections;
  const citationEvents: StoredEvent[] = [
    {
      type: "report.citations",
      kept: processed.stats.kept,
      removedUnknown: processed.stats.removedUnknown,
      flattenedLinks: processed.stats.flattenedLinks,
    },
    ...linkCorrections.map((c) => ({ type: "report.link_corrected" as const, ...c })),
  ];
  const plan =
    opts.checkSupport && processed.citations.length > 0
      ? planSupportCheck(deps, { citations: processed.citations, sources: opts.numbered })
      : undefined;
  let counts = unchecked;
  let markdown = processed.markdown;
  let acted = { marked: 0, removed: 0 };
  // Stored before the support check, so a run resumed after a crash here finds a consistent report.
  // The writes go on while the check's model call is out (they need the CPU, it only waits); they
  // are awaited before the checked report replaces them, so the order of writes is unchanged.
  let stored: CitationRecord[] = processed.citations.map((c) => ({
    ...c,
    support: "unchecked" as const,
    ...notChecked,
  }));
  const storeUnchecked = async () => {
    await deps.store.saveCitations(stored);
    await deps.store.saveReport({
      markdown: processed.markdown,
      partial: opts.partial,
      citationStats: { ...processed.stats, ...unchecked, marked: 0, removed: 0, linkCorrections },
    });
    await emitAll(deps.events, citationEvents);
  };
  // When the lexical pass settles every citation there is no model call to overlap: the report is
  // stored once, checked, and its citation events go out with the check's.
  const lexicalOnly = plan !== undefined && plan.budgeted.length === 0;
  const support = lexicalOnly
    ? await judgeSupport(deps, plan)
    : await settledAfter(storeUnchecked(), async () => (plan ? judgeSupport(deps, plan) : undefined));
  if (support) {
    counts = support.counts;
    const result = actOnVerdicts(processed, support.records, deps.config.strictCitations, words);
    markdown = result.markdown;
    acted = { marked: result.marked, removed: result.removed };
    stored = result.records;
    await deps.store.saveCitations(stored);
    await deps.store.saveReport({
      markdown,
      partial: opts.partial,
      citationStats: { ...processed.stats, ...counts, ...acted, linkCorrections },
    });
  }
  const citationStats = { ...processed.stats, ...counts, ...acted, linkCorrections };
  await emitAll(deps.events, [
    ...(lexicalOnly ? citationEvents : []),
    { type: "report.support_checked", ...counts, ...acted },
    {
      type: "report.completed",
      chars: markdown.length,
      citations: processed.stats.citedSources,
      partial: opts.partial,
      // The report as just stored: a page following the run shows it from here.
      markdown,
      citationStats,
      // In report order, as the run's JSON lists them.
      verdicts: [...stored].sort((a, b) => a.number - b.number).map(verdictOf),
    },
  ]);
  return { markdown, partial: opts.partial, citationStats };
}

/**
 * Writes, post-processes, checks and stores the report. Throws what the model layer throws for
 * anything but a context-window overflow (cancellation, budget, provider failure): the orchestrator
 * decides how the run ends.
 */
export async function writeReport(
  deps: EngineDeps,
  input: ReportInput,
  opts: WriteReportOptions = {},
): Promise<ReportOutcome> {
  // Written while the report's model call is out when the engine defers writes (writes-behind.ts).
  await deps.events.emit({ type: "report.started" });
  const numbered = citableSources(input.sources);
  const words = wordsOf(deps, input.question);
  const items = await prepareFindings(deps, input, numbered);
  const sourceList = numbered.map((s, i) => ({ number: i + 1, title: s.title, url: s.url }));
  const instructions = synthesisInstructions(deps.config.reportLanguage);
  const buildPrompt = (kept: readonly FindingsItem[]) =>
    synthesisPrompt({
      question: input.question,
      brief: input.brief,
      sources: sourceList,
      findingsBlocks: kept.map(formatFindingsBlock),
      omittedNote: kept.length < items.length ? omittedFindingsNote(items.length - kept.length) : undefined,
      language: deps.config.reportLanguage,
    });
  // Everything but the findings' text: system prompt, question, brief, source list, block wrappers.
  const fixedChars =
    instructions.length +
    buildPrompt([]).length +
    omittedFindingsNote(items.length).length +
    items.reduce((n, i) => n + formatFindingsBlock({ ...i, text: "" }).length + 2, 0);

  let emptyAnswer = false;
  const recovered = await withTokenRecovery(deps, {
    phase: "synthesis",
    role: "synthesis",
    items,
    fixedChars,
    contextWindows: opts.contextWindows ?? (() => loadContextWindows(process.env)),
    call: async (kept) => {
      const stream = deltaStreamer(deps.events);
      try {
        const r = await deps.models.text("synthesis", {
          instructions,
          prompt: buildPrompt(kept),
          onTextDelta: stream.push,
          abortSignal: deps.signal,
        });
        return r.text;
      } finally {
        await stream.flush();
      }
    },
    fallback: (kept) =>
      partialReportMarkdown({
        question: input.question,
        note: words.contextOverflow(items.length - kept.length),
        items: kept,
        words,
      }),
  });
  let markdown = recovered.value;
  if (!markdown.trim()) {
    // A model that answers nothing still leaves the reader the findings.
    emptyAnswer = true;
    markdown = partialReportMarkdown({
      question: input.question,
      note: words.emptyReport,
      items: recovered.items,
      words,
    });
  }
  if (input.writtenEarly) markdown = `${writtenEarlyNote(input, words)}\n\n${markdown}`;
  return finishReport(deps, {
    question: input.question,
    markdown,
    partial: recovered.partial || emptyAnswer || Boolean(input.writtenEarly),
    numbered,
    checkSupport: true,
  });
}

/** The first lines of a report written early: how much of the planned research it rests on. */
function writtenEarlyNote(input: ReportInput, words: ReportWords): string {
  const researched = new Set(input.findings.map((f) => f.directiveId)).size;
  return partialNotice(words, words.writtenEarly(researched, input.directives.length, input.sources.length));
}

/** A notice the app puts into a report: a blockquote opened in bold (knowledge-evidence.ts finds it so). */
const partialNotice = (words: ReportWords, note: string) => `> **${words.partial}** ${note}`;

/** The words the code writes into this run's report, in its language. */
const wordsOf = (deps: EngineDeps, question: string) =>
  reportWords(reportLanguageOf(deps.config.reportLanguage, question));

/**
 * A partial report from whatever was gathered, written without any model call: for a run that
 * cannot finish (budget exhausted, time limit, a failing model). Undefined when nothing was gathered.
 */
export async function writePartialReport(
  deps: EngineDeps,
  input: Omit<ReportInput, "brief"> & { reason: string; because?: Because<RunFailureCode> },
): Promise<{ markdown: string } | undefined> {
  const numbered = citableSources(input.sources);
  const items = await prepareFindings(deps, input, numbered);
  if (!items.length) return undefined;
  await deps.events.emit({ type: "report.started" });
  const words = wordsOf(deps, input.question);
  const markdown = partialReportMarkdown({
    question: input.question,
    note: words.stoppedBeforeReport(
      input.because ? failedBecause(words, input.because) : input.reason.trim(),
    ),
    items,
    words,
  });
  const outcome = await finishReport(deps, {
    question: input.question,
    markdown,
    partial: true,
    numbered,
    checkSupport: false,
  });
  return { markdown: outcome.markdown };
}
