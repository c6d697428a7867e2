/**
 * What one finished run did, read from what the engine stored (its tables and stored events, never its
 * memory): the run row and its usage, the report and its citation stats, each citation's support
 * verdict, the directives with the sources linked to them, and the stored researcher.fetch events
 * that say which pages each directive read (a source's text is stored once per run, so the
 * sources table alone cannot tell which directive read it).
 */
import type { Db } from "../db/client.ts";
import { directiveMeasureRows, runMeasureRows } from "../db/queries/run-measures.ts";
import { type LanguageMatch, languageMatch } from "./language.ts";

export interface DirectiveMeasure {
  topic: string;
  round: number;
  status: string;
  /** Sources linked to the directive (search hits included). */
  sourcesSeen: number;
  /** Distinct pages this directive's researcher read (a successful researcher.fetch event). */
  sourcesRead: number;
}

export interface QuestionMeasure {
  id: string;
  question: string;
  runId: string;
  status: string;
  completed: boolean;
  error: string | null;
  seconds: number;
  citations: {
    /** Citation rows stored with the report. */
    total: number;
    /** References kept in the report (they point at a stored source with text). */
    resolved: number;
    /** References dropped because no stored source with text had that number. */
    unresolved: number;
    /** resolved / (resolved + unresolved), null without any reference. */
    resolvedRate: number | null;
  };
  /** Citations per support verdict, whatever verdicts the engine stores. */
  support: Record<string, number>;
  /** Unsupported citations / all citations, null without citations. */
  unsupportedRate: number | null;
  directives: DirectiveMeasure[];
  /** Mean sources read per directive. */
  sourcesReadPerDirective: number;
  language: LanguageMatch;
  rounds: number;
  tokens: { input: number; output: number; total: number };
  costUsd: number;
}

const ratio = (n: number, d: number) => (d > 0 ? n / d : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export async function measureRun(
  db: Db,
  q: { id: string; question: string },
  runId: string,
  seconds: number,
): Promise<QuestionMeasure> {
  const { run, report, cited, rounds } = await runMeasureRows(db, runId);
  if (!run) throw new Error(`eval: run ${runId} vanished`);
  const dirs = await measureDirectives(db, runId);
  const stats = (report?.citationStats ?? {}) as Record<string, unknown>;
  const support: Record<string, number> = {};
  for (const c of cited) support[c.support] = (support[c.support] ?? 0) + 1;
  const resolved = num(stats.kept);
  const unresolved = num(stats.removedUnknown);
  const total = ((run.usage as { total?: Record<string, unknown> }).total ?? {}) as Record<string, unknown>;
  return {
    id: q.id,
    question: q.question,
    runId,
    status: run.status,
    completed: run.status === "completed",
    error: run.error,
    seconds,
    citations: {
      total: cited.length,
      resolved,
      unresolved,
      resolvedRate: ratio(resolved, resolved + unresolved),
    },
    support,
    unsupportedRate: ratio(support.unsupported ?? 0, cited.length),
    directives: dirs,
    sourcesReadPerDirective: dirs.length ? dirs.reduce((s, d) => s + d.sourcesRead, 0) / dirs.length : 0,
    language: languageMatch(q.question, report?.markdown ?? null),
    rounds: rounds.length,
    tokens: { input: num(total.inputTokens), output: num(total.outputTokens), total: num(total.totalTokens) },
    costUsd: num(total.costUsd),
  };
}

async function measureDirectives(db: Db, runId: string): Promise<DirectiveMeasure[]> {
  const { dirs, links, fetches } = await directiveMeasureRows(db, runId);
  const read = new Map<string, Set<string>>();
  for (const { payload } of fetches) {
    const p = payload as { directiveId?: string; url?: string; ok?: boolean };
    if (!p.ok || !p.directiveId || !p.url) continue;
    read.set(p.directiveId, (read.get(p.directiveId) ?? new Set()).add(p.url));
  }
  return dirs.map((d) => ({
    topic: d.topic,
    round: d.round,
    status: d.status,
    sourcesSeen: links.filter((l) => l.directiveId === d.id).length,
    sourcesRead: read.get(d.id)?.size ?? 0,
  }));
}
