import { useLocale, useTranslations } from "next-intl";
import type { ActionState } from "@/lib/server/actions/action-state";
import { type ErrorTranslator, localizedError } from "../error-text";

/**
 * What a run form's action answered, in a live region (so a screen reader hears it): a
 * confirmation, or the error with what to do, in the page's language (errors by their code). A
 * refused action (409) reads as a plain sentence. `ok` replaces the confirmation, `okText` its words
 * (the server's own confirmation is English; the form knows what it did).
 */
export function ActionMessage({
  state,
  ok,
  okText,
}: {
  state: ActionState;
  ok?: React.ReactNode;
  okText?: string;
}) {
  const t = useTranslations("run.action");
  const errors = useTranslations("errors") as unknown as ErrorTranslator;
  const locale = useLocale();
  const error = state.status === "error" ? localizedError(state, locale, errors) : "";
  return (
    <div aria-live="polite" className="text-sm">
      {state.status === "ok" &&
        (ok ?? <p className="text-green-800 dark:text-green-300">{okText ?? state.message}</p>)}
      {state.status === "error" && (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {state.code === "conflict" ? t("notNow", { message: error }) : error}
        </p>
      )}
    </div>
  );
}

/** The hidden field every run form carries: which run it acts on. */
export function RunIdField({ runId }: { runId: string }) {
  return <input type="hidden" name="runId" value={runId} />;
}
