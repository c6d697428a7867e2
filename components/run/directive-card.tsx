import { useTranslations } from "next-intl";
import { LazyMarkdown } from "../lazy-markdown";
import { stopReasonLabel } from "./activity-labels";
import type { ActivityEntry } from "./activity-model";
import { directiveStatusText, isResearching } from "./directive-status";
import { labelOf } from "./run-words";
import type { DirectiveView, RunViewJson } from "./types";

/**
 * One directive: its researcher, short title (the full topic on expand), round, who asked for it, priority and status in words, how
 * many steps its researcher took so far, why it stopped, and its condensed findings on demand.
 */
export function DirectiveCard({
  directive: d,
  number,
  run,
  activity,
  steps,
}: {
  directive: DirectiveView;
  number: number;
  run: RunViewJson;
  activity: ActivityEntry[];
  steps: number;
}) {
  const t = useTranslations("directive");
  const words = useTranslations();
  const live = isResearching(d, run);
  const findings = run.findings?.[d.id] ?? "";
  return (
    <article
      data-testid="directive-card"
      data-directive-id={d.id}
      aria-labelledby={`directive-${d.id}`}
      className="h-full space-y-2 rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`directive-${d.id}`} className="min-w-0 font-medium [overflow-wrap:anywhere]">
          <span className="block text-xs font-normal text-muted">{t("researcher", { number })}</span>
          <span data-testid="directive-title">{d.title}</span>
        </h3>
        <span
          data-testid="directive-status"
          className={`rounded px-1.5 py-0.5 text-xs ${live ? "bg-blue-50 text-blue-800 dark:bg-blue-950 dark:text-blue-200" : "bg-zinc-100 dark:bg-zinc-800"}`}
        >
          {live && <span aria-hidden="true">● </span>}
          {directiveStatusText(d, run, activity, words)}
        </span>
      </div>
      {d.topic !== d.title && (
        <details>
          <summary className="cursor-pointer text-xs font-medium">{t("fullTopic")}</summary>
          <p className="mt-1 [overflow-wrap:anywhere]">{d.topic}</p>
        </details>
      )}
      <p className="text-xs text-muted">
        {t("meta", {
          // The engine counts rounds from 0; people from 1.
          round: d.round + 1,
          origin: d.origin,
          priority: labelOf(words, "run.priority", d.priority),
          steps,
          live: live ? "yes" : "no",
        })}
      </p>
      {d.stopReason && (
        <p className="text-xs text-muted">
          {words("run.directives.stopped", { reason: stopReasonLabel(words, d.stopReason) })}
        </p>
      )}
      {findings && (
        <details>
          <summary className="cursor-pointer text-xs font-medium">{words("run.directives.findings")}</summary>
          <div className="mt-2 max-w-none text-xs [overflow-wrap:anywhere]">
            <LazyMarkdown>{findings}</LazyMarkdown>
          </div>
        </details>
      )}
    </article>
  );
}
