import type { RunViewJson } from "./types";

/** The question, status and phase, what has been gathered, and the run-wide actions and messages. */
export function StatusHeader({
  run,
  children,
}: {
  run: RunViewJson;
  /** The run's actions (RunControls). */
  children?: React.ReactNode;
}) {
  return (
    <header className="space-y-2">
      <p className="text-sm text-muted">
        <a href="/" className="hover:underline">
          ← all runs
        </a>
      </p>
      <h1 className="text-2xl font-semibold tracking-tight">{run.question}</h1>
      <p className="flex flex-wrap items-center gap-3 text-sm">
        <span data-testid="run-status" className="rounded bg-zinc-100 px-2 py-0.5 dark:bg-zinc-800">
          {run.status}
        </span>
        {run.phase && <span className="text-muted">phase: {run.phase}</span>}
        <span className="text-muted">
          {run.sources.length} sources · {run.directives.length} directives
        </span>
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
