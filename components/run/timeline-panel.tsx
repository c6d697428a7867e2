"use client";

import { useTranslations } from "next-intl";
import { useEffect, useMemo, useRef, useState } from "react";
import type { ResearchEvent } from "@/lib/research/ui";
import { type ActivityEntry, clockTime, feedEntries, groupActivity } from "./activity-model";
import { describeEvent } from "./describe-event";
import type { DirectiveView } from "./types";

/**
 * An event's line, made once per event and language: a busy run re-renders the feed on every event,
 * and its hundreds of entries keep their words (entries keep their event objects across updates).
 */
function useLineOf(): (event: ResearchEvent) => string {
  const words = useTranslations();
  return useMemo(() => {
    const lines = new WeakMap<ResearchEvent, string>();
    return (event: ResearchEvent) => {
      let line = lines.get(event);
      if (line === undefined) {
        line = describeEvent(event, words);
        lines.set(event, line);
      }
      return line;
    };
  }, [words]);
}

/** Entries shown per researcher before "Earlier steps": enough to follow, short on a phone. */
const RECENT = 6;

/**
 * The run's activity as it arrives: the newest step on top, then one block per researcher (and one
 * for the supervisor and the run), each newest first, so what is happening now is always in view.
 */
export function TimelinePanel({
  activity,
  directives,
}: {
  activity: ActivityEntry[];
  directives: DirectiveView[];
}) {
  const lineOf = useLineOf();
  const t = useTranslations("run.timeline");
  const shown = feedEntries(activity);
  const latest = shown.at(-1);
  const latestText = latest ? lineOf(latest.event) : "";
  const groups = groupActivity(shown, directives);
  return (
    <section aria-labelledby="activity-heading" data-testid="timeline" className="space-y-3 text-sm">
      <h2 id="activity-heading" className="font-medium">
        {t("title")}
      </h2>
      {latest ? (
        <p className="rounded border border-zinc-200 bg-zinc-50 px-3 py-2 [overflow-wrap:anywhere] dark:border-zinc-800 dark:bg-zinc-900">
          <span className="mr-2 text-xs text-muted">
            {t("latest")}
            {latest.at ? ` · ${clockTime(latest.at)}` : ""}
          </span>
          <span data-testid="activity-latest" data-seq={latest.seq}>
            {latestText}
          </span>
        </p>
      ) : (
        <p className="text-muted">{t("none")}</p>
      )}
      <Announcer text={latestText} />
      {groups.map((g) => {
        const title = g.researcher === null ? t("run") : t("researcher", { n: g.researcher });
        return (
          <section
            key={g.key}
            aria-label={title}
            data-testid="activity-group"
            className="rounded border border-zinc-200 p-3 dark:border-zinc-800"
          >
            <h3 className="font-medium">
              {title}
              {g.topic && <span className="ml-2 font-normal text-muted">{g.topic}</span>}
            </h3>
            <EntryList entries={g.entries.slice(0, RECENT)} lineOf={lineOf} />
            {g.entries.length > RECENT && (
              <details className="mt-1">
                <summary className="cursor-pointer text-xs text-muted">
                  {t("earlier", { count: g.entries.length - RECENT })}
                </summary>
                <EntryList entries={g.entries.slice(RECENT)} lineOf={lineOf} />
              </details>
            )}
          </section>
        );
      })}
    </section>
  );
}

function EntryList({
  entries,
  lineOf,
}: {
  entries: ActivityEntry[];
  lineOf: (event: ResearchEvent) => string;
}) {
  return (
    <ol className="mt-1 space-y-1 text-xs">
      {entries.map((e) => (
        <li key={e.seq} data-seq={e.seq} className="flex gap-2 [overflow-wrap:anywhere]">
          {e.at && (
            <time dateTime={e.at} className="shrink-0 tabular-nums text-muted">
              {clockTime(e.at)}
            </time>
          )}
          <span className="min-w-0">{lineOf(e.event)}</span>
        </li>
      ))}
    </ol>
  );
}

/** Says the newest step to screen readers, at most every 15 seconds, so the feed is not a torrent. */
function Announcer({ text }: { text: string }) {
  const [said, setSaid] = useState("");
  const last = useRef(0);
  useEffect(() => {
    if (!text) return;
    const wait = Math.max(0, last.current + 15_000 - Date.now());
    const timer = setTimeout(() => {
      last.current = Date.now();
      setSaid(text);
    }, wait);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <p aria-live="polite" className="sr-only">
      {said}
    </p>
  );
}
