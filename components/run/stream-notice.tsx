"use client";

/** The run page's live updates were refused or stopped: why, and a way to try again. */
export function StreamNotice({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      data-testid="stream-notice"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      <p className="flex-1">{message} The page is not updating by itself.</p>
      <button
        type="button"
        onClick={onRetry}
        className="rounded-lg border border-amber-400 px-3 py-1.5 font-medium hover:bg-amber-100 dark:border-amber-600 dark:hover:bg-amber-900"
      >
        Try again
      </button>
    </div>
  );
}
