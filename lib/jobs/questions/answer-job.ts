/**
 * Answers one follow-up question in a worker: indexes the run's passages on its first question,
 * retrieves the passages the question is about, writes and checks the answer (lib/research/
 * questions), and records it with its usage — added to the run's usage in the same transaction —
 * and its event. A failure is recorded as the question's and never touches the run's status.
 */
import type { DatabaseHandle, Db } from "../../../db/client.ts";
import { indexRunPassages, searchRunPassages } from "../../../db/queries/passages.ts";
import {
  claimQuestion,
  finishQuestion,
  listRunQuestions,
  lockRunUsage,
  type QuestionEnd,
} from "../../../db/queries/questions.ts";
import { getReport, listCitations } from "../../../db/queries/research.ts";
import { getRun, saveRunUsage } from "../../../db/queries/runs.ts";
import { createDbRunStore } from "../../../db/research-store.ts";
import type { ModelRegistry } from "../../ai/registry.ts";
import { UsageMeter } from "../../ai/usage.ts";
import {
  answerFailureBecause,
  answerQuestion,
  type Because,
  type EventSink,
  isTransientEvent,
  noReportBecause,
  type ResearchEvent,
  resolveResearchConfig,
  type StoredEvent,
  THREAD_CONTEXT,
  threadSourceNumbers,
} from "../../research/index.ts";
import { log } from "../../telemetry/log.ts";
import type { RunBus } from "../bus.ts";
import { createEngineDeps, processModelRegistry } from "../engine-deps.ts";
import { withEventTransaction } from "../event-sink.ts";
import { effectiveConfig } from "../settings/effective-config.ts";
import { addUsage } from "./usage-sum.ts";

/** Passages handed to the model, and the share of the question's words one must have to count. */
export const RETRIEVAL = { limit: 8, minCoverage: 0.5 };

export interface AnswerJobOptions {
  handle: DatabaseHandle;
  bus: RunBus;
  questionId: string;
  signal: AbortSignal;
  env?: Record<string, string | undefined>;
  registry?: ModelRegistry;
}

/** Events of a question, written after the run's end and announced like the run's own. */
function questionEvents(db: Db, bus: RunBus, runId: string): EventSink {
  const append = (events: readonly StoredEvent[]) =>
    withEventTransaction(db, bus, (_tx, log) => log.appendAll(runId, events)).then(() => {});
  const stored = (e: ResearchEvent): e is StoredEvent => !isTransientEvent(e);
  return {
    // Nothing transient is announced here: an answer's text arrives with question.answered.
    emit: async (e) => {
      if (stored(e)) await append([e]);
    },
    emitMany: async (es) => append(es.filter(stored)),
  };
}

export async function answerQuestionJob(opts: AnswerJobOptions): Promise<void> {
  const db = opts.handle.db;
  const question = await claimQuestion(db, opts.questionId);
  if (!question) return; // already answered: a job delivered twice answers once
  const run = await getRun(db, question.runId);
  const report = run && (await getReport(db, run.id));
  const events = questionEvents(db, opts.bus, question.runId);
  if (!run || !report) {
    await end(db, events, question.id, question.runId, failed("the run has no report", noReportBecause));
    return;
  }
  const env = (await effectiveConfig(db, opts.env ?? process.env)).env;
  const registry = opts.registry ?? processModelRegistry(env);
  const meter = new UsageMeter({ pricing: registry.pricing });
  try {
    const store = createDbRunStore(db, run.id);
    const deps = createEngineDeps({
      db,
      run,
      store,
      events,
      signal: opts.signal,
      env,
      registry,
      meter,
      config: resolveResearchConfig(run.settings),
    });
    await indexRunPassages(db, run.id);
    const [hits, citations, sources, thread] = await Promise.all([
      searchRunPassages(db, run.id, question.question, RETRIEVAL),
      listCitations(db, run.id),
      store.listSources(),
      listRunQuestions(db, run.id),
    ]);
    const earlier = thread
      .filter((q) => q.createdAt < question.createdAt && q.status === "answered" && q.answer)
      .slice(-THREAD_CONTEXT)
      .map((q) => ({ question: q.question, answer: q.answer as string }));
    const outcome = await answerQuestion(
      deps,
      {
        question: question.question,
        report: report.markdown,
        thread: earlier,
        passages: hits,
        numbered: threadSourceNumbers(citations, sources),
      },
      (text) => {
        // Live only, like the report's deltas: the answer itself is stored when it ends.
        opts.bus.publish({ kind: "delta", runId: run.id, text, questionId: question.id }).catch(() => {});
      },
    );
    await end(db, events, question.id, run.id, {
      status: outcome.status,
      answer: outcome.answer,
      citations: outcome.citations,
      model: outcome.model,
      usage: meter.snapshot() as unknown as Record<string, unknown>,
      error: null,
      errorBecause: null,
    });
  } catch (error) {
    if (opts.signal.aborted) throw error; // the worker stops: the job is retried and answers then
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    log("worker").warn({ err: error, questionId: question.id }, "answering a question failed");
    const usage = meter.snapshot() as unknown as Record<string, unknown>;
    const ended = failed(reason, answerFailureBecause(error, reason));
    await end(db, events, question.id, run.id, { ...ended, usage });
  }
}

function failed(reason: string, errorBecause: Because): QuestionEnd {
  return {
    status: "failed",
    answer: null,
    citations: [],
    model: null,
    usage: {},
    error: reason,
    errorBecause,
  };
}

/** The question's end, its cost added to the run's usage, and its event: one transaction. */
async function end(db: Db, events: EventSink, id: string, runId: string, e: QuestionEnd): Promise<void> {
  const ended = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    if (!(await finishQuestion(t, id, e))) return false;
    const usage = e.usage as { total?: unknown };
    if (usage.total) {
      const runUsage = (await lockRunUsage(t, runId)) ?? {};
      await saveRunUsage(t, runId, addUsage(runUsage, e.usage as never));
    }
    return true;
  });
  if (!ended) return;
  await events.emit(
    e.status === "failed"
      ? {
          type: "question.failed",
          questionId: id,
          reason: e.error ?? "unknown",
          ...(e.errorBecause && { because: e.errorBecause }),
        }
      : { type: "question.answered", questionId: id, status: e.status, citations: e.citations.length },
  );
}
