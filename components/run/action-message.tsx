import type { ActionState } from "@/lib/server/actions/action-state";

/**
 * What a run form's action answered, in a live region (so a screen reader hears it): a
 * confirmation, or the error with what to do. A refused action (409) reads as a plain sentence.
 */
export function ActionMessage({ state, ok }: { state: ActionState; ok?: React.ReactNode }) {
  return (
    <div aria-live="polite" className="text-sm">
      {state.status === "ok" && (ok ?? <p className="text-green-800 dark:text-green-300">{state.message}</p>)}
      {state.status === "error" && (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {state.code === "conflict" ? `Not possible now: ${state.message}` : state.message}
        </p>
      )}
    </div>
  );
}

/** The hidden field every run form carries: which run it acts on. */
export function RunIdField({ runId }: { runId: string }) {
  return <input type="hidden" name="runId" value={runId} />;
}
