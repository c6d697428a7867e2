"use client";

import { useTranslations } from "next-intl";
import { terminalRunStatuses } from "@/lib/research/ui";
import { runStateKey } from "../labels";
import { elapsedMs, formatElapsed } from "./activity-model";
import { becauseText } from "./because-text";
import type { RunViewJson } from "./types";

/**
 * The question (the page's one H1), the run's state in words and its actions; once it has ended,
 * also how long it took and what it gathered (while it runs, the progress card says that). Sticky
 * on wide screens while the run goes, opaque so nothing shows through; on a phone it scrolls away.
 */
export function StatusHeader({
  run,
  children,
}: {
  run: RunViewJson;
  /** The run's actions (RunControls). */
  children?: React.ReactNode;
}) {
  const t = useTranslations("runState");
  const words = useTranslations("run");
  const say = useTranslations();
  const ended = terminalRunStatuses.includes(run.status);
  const status = t(runStateKey(run.status, run.phase));
  return (
    <header
      className={`space-y-2 ${ended ? "" : "-mx-4 border-b border-zinc-200 bg-zinc-50 px-4 py-3 sm:sticky sm:top-0 sm:z-10 sm:-mx-6 sm:px-6 dark:border-zinc-800 dark:bg-zinc-950"}`}
    >
      <p className="text-sm text-muted">
        <a href="/" className="hover:underline">
          {words("allRuns")}
        </a>
      </p>
      <h1
        title={run.question}
        className={`font-semibold tracking-tight [overflow-wrap:anywhere] ${ended ? "text-2xl" : "line-clamp-3 text-xl sm:text-2xl"}`}
      >
        {run.question}
      </h1>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span
          data-testid="run-status"
          data-status={run.status}
          className="rounded bg-zinc-100 px-2 py-0.5 dark:bg-zinc-800"
        >
          {status}
        </span>
        {ended && <EndedFigures run={run} />}
      </p>
      {run.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {becauseText(say, run.errorBecause, run.error)}
        </p>
      )}
      {children}
    </header>
  );
}

function EndedFigures({ run }: { run: RunViewJson }) {
  const t = useTranslations("common");
  const words = useTranslations();
  const time = formatElapsed(elapsedMs(run, Date.now()), words);
  return (
    <>
      <span className="text-muted">
        {words.rich("run.took", {
          time,
          elapsed: (chunks) => (
            <time data-testid="elapsed" suppressHydrationWarning>
              {chunks}
            </time>
          ),
        })}
      </span>
      <span className="text-muted">
        {t("sources", { count: run.sources.length })} · {t("topics", { count: run.directives.length })}
      </span>
    </>
  );
}
