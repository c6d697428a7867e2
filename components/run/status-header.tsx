"use client";

import { useEffect, useState } from "react";
import { terminalRunStatuses } from "@/lib/research/ui";
import { labelFor, runPhaseLabels, runStatusLabels } from "../labels";
import { type ActivityEntry, elapsedMs, formatElapsed, nowDoing } from "./activity-model";
import type { RunViewJson } from "./types";

/** The time now, ticking every second while `live` (the server and the first render agree on it). */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  return now;
}

/**
 * The question (the page's one H1), status and phase in words, elapsed time and what the run is
 * doing now; sticky while the run goes, so the state stays in view while reading the activity.
 */
export function StatusHeader({
  run,
  activity,
  children,
}: {
  run: RunViewJson;
  activity: ActivityEntry[];
  /** The run's actions (RunControls). */
  children?: React.ReactNode;
}) {
  const ended = terminalRunStatuses.includes(run.status);
  const now = useNow(!ended);
  const phase = run.phase && !ended ? labelFor(runPhaseLabels, run.phase) : "";
  const status = labelFor(runStatusLabels, run.status);
  return (
    <header
      className={`space-y-2 ${ended ? "" : "sticky top-0 z-10 -mx-6 border-b border-zinc-200 bg-zinc-50/95 px-6 py-3 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/95"}`}
    >
      <p className="text-sm text-muted">
        <a href="/" className="hover:underline">
          ← all runs
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
        {phase && phase !== status && <span className="text-muted">{phase}</span>}
        <span className="text-muted">
          {ended ? "Took " : "Running for "}
          <time data-testid="elapsed" suppressHydrationWarning>
            {formatElapsed(elapsedMs(run, now))}
          </time>
        </span>
        <span className="text-muted">
          {run.sources.length} {run.sources.length === 1 ? "source" : "sources"} · {run.directives.length}{" "}
          {run.directives.length === 1 ? "directive" : "directives"}
        </span>
      </p>
      <p data-testid="now-doing" aria-live="polite" className="text-sm [overflow-wrap:anywhere]">
        {nowDoing(run, activity)}
      </p>
      {run.queuePosition !== null && (
        <p data-testid="queue-position" className="text-sm text-muted">
          Waiting for a free slot: {ordinal(run.queuePosition)} in your queue. It starts when one of your
          running runs ends.
        </p>
      )}
      {run.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {run.error}
        </p>
      )}
      {children}
    </header>
  );
}

function ordinal(n: number): string {
  return n === 1 ? "next" : `number ${n}`;
}
