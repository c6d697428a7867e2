import { useTranslations } from "next-intl";
import { runStateKey } from "@/components/labels";
import { terminalRunStatuses } from "@/lib/research/ui";
import { groupRunFamilies } from "@/lib/server/runs/families";
import type { RunSummary } from "@/lib/server/runs/view-model";
import { DeleteRun } from "./delete-run";
import { useTimeFormat } from "./time-format";

/**
 * The owner's recent runs: question, status in words, when (relative; the exact time on hover),
 * how long, how many sources, and delete. The search is a plain GET form (?q=), filtered by the
 * server, so it works before the page's JavaScript has loaded.
 */
export function RecentRuns({ runs, query }: { runs: RunSummary[]; query: string }) {
  const t = useTranslations("home.recent");
  if (runs.length === 0 && !query) return null;
  const now = new Date();
  return (
    <section aria-label={t("title")} className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-lg font-medium">{t("title")}</h2>
        <search>
          <form action="/" method="get" className="flex items-end gap-2 text-sm">
            <label htmlFor="run-search" className="sr-only">
              {t("searchLabel")}
            </label>
            <input
              id="run-search"
              type="search"
              name="q"
              defaultValue={query}
              placeholder={t("searchPlaceholder")}
              className="w-48 rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
            />
            <button type="submit" className="rounded border border-zinc-300 px-3 py-1 dark:border-zinc-700">
              {t("search")}
            </button>
          </form>
        </search>
      </div>
      {query && (
        <p className="text-sm text-muted" aria-live="polite">
          {t("matches", { count: runs.length, query })}{" "}
          <a href="/" className="underline">
            {t("showAll")}
          </a>
        </p>
      )}
      {runs.length > 0 && (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {groupRunFamilies(runs).map((f) => (
            <RunRow key={f.run.id} run={f.run} now={now}>
              {f.related.length > 0 && <RelatedRuns runs={f.related} now={now} />}
            </RunRow>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A report's follow-up runs and versions, under its entry (lib/server/runs/families.ts). */
function RelatedRuns({ runs, now }: { runs: RunSummary[]; now: Date }) {
  const t = useTranslations("lineage");
  const followUps = runs.filter((r) => r.parentId).length;
  const versions = runs.length - followUps;
  return (
    <div className="border-l-2 border-zinc-200 pl-3 dark:border-zinc-800" data-testid="run-family">
      <p className="text-xs text-muted">
        {[
          followUps ? t("followUps", { count: followUps }) : null,
          versions ? t("versions", { count: versions }) : null,
        ]
          .filter(Boolean)
          .join(" · ")}
      </p>
      <ul>
        {runs.map((r) => (
          <RunRow key={r.id} run={r} now={now} />
        ))}
      </ul>
    </div>
  );
}

function RunRow({ run, now, children }: { run: RunSummary; now: Date; children?: React.ReactNode }) {
  const state = useTranslations("runState");
  const t = useTranslations("home.recent");
  const common = useTranslations("common");
  const { absoluteTime, relativeTime, runDuration } = useTimeFormat();
  const duration = runDuration(run, now);
  return (
    <li className="space-y-1 p-3 text-sm" data-testid="recent-run">
      <div className="flex items-start justify-between gap-4">
        <a href={`/runs/${run.id}`} className="min-w-0 break-words font-medium hover:underline">
          {run.question}
        </a>
        <span
          className="shrink-0 rounded bg-zinc-100 px-2 py-0.5 text-xs dark:bg-zinc-800"
          data-testid="recent-run-status"
        >
          {state(runStateKey(run.status, run.phase))}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        <time
          dateTime={run.createdAt.toISOString()}
          title={absoluteTime(run.createdAt)}
          data-testid="run-date"
        >
          {relativeTime(run.createdAt, now)}
        </time>
        {duration && (
          <span data-testid="run-duration">
            {t(duration.ongoing ? "runningFor" : "took", { time: duration.text })}
          </span>
        )}
        <span data-testid="run-sources">{common("sources", { count: run.sourceCount })}</span>
        <DeleteRun id={run.id} question={run.question} ended={terminalRunStatuses.includes(run.status)} />
      </div>
      {children}
    </li>
  );
}
