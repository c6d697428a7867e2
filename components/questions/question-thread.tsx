"use client";

import { useTranslations } from "next-intl";
import { useActionState, useCallback, useEffect, useId, useMemo, useState } from "react";
import type { Because } from "@/lib/research/ui";
import type { ActionState } from "@/lib/server/actions/action-state";
import { askQuestionAction } from "@/lib/server/actions/questions";
import type { QuestionView } from "@/lib/server/questions/schemas";
import { api } from "../api-client";
import { LazyMarkdown } from "../lazy-markdown";
import { CitationCards } from "../report/citation-cards";
import { citationCards, type ReportCitations } from "../report/citation-data";
import { becauseText } from "../run/because-text";
import { DeeperForm } from "../run/deeper-form";

interface SourceRow {
  id: string;
  title: string | null;
  domain: string | null;
  url: string;
}

const idle: ActionState = { status: "idle" };
const open = (q: QuestionView) => q.status === "queued" || q.status === "answering";

/** An answer's citations as the report's cards: the passages come with them (no fetch on hover). */
function answerCitations(q: QuestionView, sources: readonly SourceRow[]): ReportCitations {
  // A code this version has no words for is said as the English reason (becauseText).
  const rows = q.citations.map((c) => ({
    ...c,
    number: c.n,
    reason: c.reason || null,
    because: c.because as Because | null,
  }));
  return { cards: citationCards(rows, sources) };
}

/**
 * "Ask about this report": the form (a server action, so it posts before hydration), the thread,
 * and the answer being written, streamed from the run's event stream (question.delta) until its
 * question.answered or question.failed; then the thread is read again with the stored answer.
 */
export function QuestionThread({
  runId,
  initial,
  sources,
}: {
  runId: string;
  initial: QuestionView[];
  sources: readonly SourceRow[];
}) {
  const t = useTranslations("questions");
  const words = useTranslations();
  const id = useId();
  const [thread, setThread] = useState(initial);
  const [live, setLive] = useState<{ questionId: string; text: string } | null>(null);
  const [state, formAction, pending] = useActionState(askQuestionAction, idle);

  const reload = useCallback(async () => {
    setThread(await api<QuestionView[]>(`/api/runs/${runId}/questions`));
  }, [runId]);

  // After a question is asked: follow the run's stream from its question.asked event.
  useEffect(() => {
    if (state.status !== "ok" || !state.data) return;
    const questionId = String(state.data.questionId);
    setLive({ questionId, text: "" });
    void reload();
    const source = new EventSource(`/api/runs/${runId}/events?deltas=1&after=${Number(state.data.eventSeq)}`);
    const mine = (e: MessageEvent) => (JSON.parse(e.data) as { questionId?: string; text?: string }) ?? {};
    source.addEventListener("question.delta", (e) => {
      const d = mine(e as MessageEvent);
      if (d.questionId === questionId)
        setLive((l) => ({ questionId, text: (l?.text ?? "") + (d.text ?? "") }));
    });
    const end = (e: Event) => {
      if (mine(e as MessageEvent).questionId !== questionId) return;
      source.close();
      void reload().then(() => setLive(null));
    };
    source.addEventListener("question.answered", end);
    source.addEventListener("question.failed", end);
    return () => source.close();
  }, [state, runId, reload]);

  // A question still open when the page was loaded (asked elsewhere, or before a reload): read again.
  const waiting = thread.some(open) && !live;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void reload().catch(() => {}), 2000);
    return () => clearInterval(timer);
  }, [waiting, reload]);

  const citations = useMemo(
    () => new Map(thread.map((q) => [q.id, answerCitations(q, sources)])),
    [thread, sources],
  );

  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid="question-thread"
      data-print="hide"
      className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {t("title")}
      </h2>
      {thread.length > 0 && (
        <ol aria-label={t("thread")} className="space-y-4">
          {thread.map((q) => (
            <li key={q.id} data-testid="question" data-status={q.status} className="space-y-2">
              <p className="font-medium">
                <span className="sr-only">{t("you")}: </span>
                {q.question}
              </p>
              {q.status === "answered" && q.answer && (
                <div data-testid="answer">
                  <CitationCards citations={citations.get(q.id)}>
                    <LazyMarkdown citations={citations.get(q.id)}>{q.answer}</LazyMarkdown>
                  </CitationCards>
                </div>
              )}
              {q.status === "not_in_sources" && (
                <div className="space-y-2">
                  <p className="text-sm text-muted">{t("notInSources")}</p>
                  <DeeperForm runId={runId} question={q.question} />
                </div>
              )}
              {q.status === "failed" && (
                <p className="text-sm text-red-700 dark:text-red-400">
                  {q.error
                    ? t("failedBecause", { reason: becauseText(words, q.errorBecause, q.error) })
                    : t("failed")}
                </p>
              )}
              {open(q) && (
                <div aria-live="polite" aria-busy="true" data-testid="answer-draft" className="text-sm">
                  {live?.questionId === q.id && live.text ? (
                    <LazyMarkdown>{live.text}</LazyMarkdown>
                  ) : (
                    <p className="text-muted">{t("answering")}</p>
                  )}
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      <form action={formAction} className="space-y-2 text-sm">
        <input type="hidden" name="runId" value={runId} />
        <label htmlFor={`${id}-question`} className="block">
          {t("label")}
        </label>
        <textarea
          id={`${id}-question`}
          name="question"
          required
          minLength={3}
          maxLength={2000}
          rows={2}
          placeholder={t("placeholder")}
          aria-describedby={`${id}-hint`}
          className="w-full rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
        />
        <p id={`${id}-hint`} className="text-xs text-muted">
          {t("hint")}
        </p>
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-60 dark:bg-zinc-100 dark:text-zinc-900"
        >
          {pending ? t("asking") : t("submit")}
        </button>
        {state.status === "error" && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {state.message}
          </p>
        )}
      </form>
    </section>
  );
}
