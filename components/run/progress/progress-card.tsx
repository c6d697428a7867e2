"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, useId } from "react";
import { type ActivityEntry, formatElapsed } from "../activity-model";
import type { RunViewJson } from "../types";
import {
  currentRound,
  currentStep,
  maxRounds,
  type ProgressStep,
  progressCounts,
  progressSteps,
  type TimeLeft,
  timeLeft,
  waitsForPerson,
  workingMs,
} from "./progress-model";
import { researcherLines } from "./researcher-lines";
import { useNow } from "./use-now";

const stepState = (step: ProgressStep, current: ProgressStep) => {
  const [i, c] = [progressSteps.indexOf(step), progressSteps.indexOf(current)];
  return i < c ? "done" : i === c ? "current" : "upcoming";
};

const stepStyle = {
  done: "border-emerald-600 bg-emerald-50 text-emerald-900 dark:border-emerald-500 dark:bg-emerald-950 dark:text-emerald-100",
  current: "border-blue-700 bg-blue-700 text-white dark:border-blue-300 dark:bg-blue-300 dark:text-zinc-950",
  upcoming: "border-zinc-300 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300",
} as const;

/**
 * The running run in plain words: a stepper (brief → plan → research, round k of at most N →
 * writing → checking citations → done), one sentence per working researcher, the counts, the time
 * it has worked (standing still while it waits for the person) and, from the end of round 1, a
 * range of time left. Internals (events, addresses, scores) stay in "How this was researched".
 * While the run waits for the person, `children` (plan review, the clarifying question) take the
 * place of the lines and counts, under the stepper and the stopped clock.
 */
export function ProgressCard({
  run,
  activity,
  children,
}: {
  run: RunViewJson;
  activity: readonly ActivityEntry[];
  children?: ReactNode;
}) {
  const t = useTranslations("progress");
  const words = useTranslations();
  const id = useId();
  const waiting = waitsForPerson(run);
  const now = useNow(!waiting);
  const step = currentStep(run, activity);
  const round = currentRound(activity);
  const counts = progressCounts(run);
  const lines = researcherLines(run, activity);
  const left = timeLeft(run, activity, now);
  const elapsed = formatElapsed(workingMs(run, activity, now), words);
  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid="progress-card"
      data-step={step}
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id={`${id}-title`} className="sr-only">
        {t("title")}
      </h2>
      <ol className="flex flex-wrap gap-1.5 text-xs" data-testid="stepper">
        {progressSteps.map((s, i) => {
          const state = stepState(s, step);
          return (
            <li
              key={s}
              data-step={s}
              aria-current={state === "current" ? "step" : undefined}
              className={`rounded-full border px-2 py-0.5 ${stepStyle[state]}`}
            >
              <span className="sr-only">{t(`stepState.${state}`)}: </span>
              {i + 1}. {t(`steps.${s}`)}
              {s === "research" && state === "current" && round > 0 && (
                <span data-testid="progress-round">
                  {" "}
                  · {t("round", { round, max: maxRounds(run.settings) })}
                </span>
              )}
            </li>
          );
        })}
      </ol>
      {waiting ? (
        children
      ) : run.queuePosition !== null ? (
        <p data-testid="queue-position">{t("queued", { position: run.queuePosition })}</p>
      ) : (
        <NowLines step={step} lines={lines} />
      )}
      {!waiting && (
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-muted" data-testid="progress-counts">
          <span>
            {t("sourcesRead", { count: counts.sourcesRead })}
            {counts.sourcesFound > counts.sourcesRead &&
              ` (${t("sourcesFound", { count: counts.sourcesFound })})`}
          </span>
          {counts.topics > 0 && (
            <span>{t("topicsDone", { done: counts.topicsDone, total: counts.topics })}</span>
          )}
        </p>
      )}
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-muted">
        <span data-testid="elapsed" data-paused={waiting || undefined} suppressHydrationWarning>
          {t(waiting ? "elapsedPaused" : "elapsed", { time: elapsed })}
        </span>
        {left && <TimeLeftText left={left} />}
      </p>
    </section>
  );
}

function NowLines({ step, lines }: { step: ProgressStep; lines: ReturnType<typeof researcherLines> }) {
  const t = useTranslations("progress");
  if (step !== "research" || !lines.length) {
    return (
      <p data-testid="progress-now" aria-live="polite">
        {t(`now.${step}`)}
      </p>
    );
  }
  return (
    <ul aria-label={t("researchersLabel")} data-testid="progress-now" className="space-y-1">
      {lines.map((line) => (
        <li key={line.directiveId} className="[overflow-wrap:anywhere]">
          {t(`researcher.${line.step.kind}`, {
            title: line.title,
            query: "query" in line.step ? line.step.query : "",
            site: "site" in line.step ? line.step.site || t("aDocument") : "",
          })}
        </li>
      ))}
    </ul>
  );
}

function TimeLeftText({ left }: { left: TimeLeft }) {
  const t = useTranslations("progress");
  const min = Math.floor(left.minMs / 60_000);
  const max = Math.ceil(left.maxMs / 60_000);
  const text =
    left.maxMs < 60_000
      ? t("timeLeftUnder")
      : min === max || min === 0
        ? t("timeLeftSame", { max: Math.max(1, max) })
        : t("timeLeft", { min, max });
  return <span data-testid="time-left">{text}</span>;
}
