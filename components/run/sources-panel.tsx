"use client";

import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { type CitationSupport, citationSupports, qualityTiers } from "@/lib/research/ui";
import { safeHref } from "../markdown-safety";
import { DomainBadge } from "../report/domain-badge";
import { verdictMarks } from "../report/verdict";
import { labelOf } from "./run-words";
import { isVerdictFilter, matchesSource, type SourceFilter, sourceVerdicts } from "./sources-filter";
import type { RunViewJson, SourceView } from "./types";

/** The run's sources in three groups: cited by the report (by number), read but not cited, only found. */
export function groupSources(run: Pick<RunViewJson, "sources" | "citations">) {
  const byId = new Map(run.sources.map((s) => [s.id, s]));
  const numberOf = new Map<string, number>();
  for (const c of run.citations) if (!numberOf.has(c.sourceId)) numberOf.set(c.sourceId, c.number);
  const cited = [...numberOf]
    .flatMap(([id, n]) => {
      const source = byId.get(id);
      return source ? [{ n, source }] : [];
    })
    .sort((a, b) => a.n - b.n);
  const rest = run.sources.filter((s) => !numberOf.has(s.id));
  return { cited, read: rest.filter((s) => s.readInFull), found: rest.filter((s) => !s.readInFull) };
}

const field = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900";

/**
 * The sources the report cites (numbered as its markers, with their citation check) apart from
 * those read but not cited and those only found by a search; each with its quality in words and
 * whether the page was read in full. A search and two filters (citation check, quality) narrow all
 * three lists. Links open the original page (a library document's library:// address has no link).
 */
export function SourcesPanel({ run }: { run: RunViewJson }) {
  const t = useTranslations("sources");
  const words = useTranslations("run");
  const [filter, setFilter] = useState<SourceFilter>({ query: "", verdict: "", quality: "" });
  const groups = useMemo(() => groupSources(run), [run]);
  const verdicts = useMemo(() => sourceVerdicts(run.citations), [run.citations]);
  if (!run.sources.length) return null;
  const keep = (s: SourceView) => matchesSource(s, verdicts.get(s.id), filter);
  const cited = groups.cited.filter(({ source }) => keep(source));
  const read = groups.read.filter(keep);
  const found = groups.found.filter(keep);
  const shown = cited.length + read.length + found.length;
  return (
    <section aria-label={t("heading")} data-print="sources" className="space-y-4">
      <h2 className="font-medium">{t("heading")}</h2>
      <search className="flex flex-wrap items-end gap-3 text-sm" data-print="hide">
        <label className="flex min-w-0 flex-1 flex-col gap-1">
          <span>{t("search")}</span>
          <input
            type="search"
            value={filter.query}
            placeholder={t("searchPlaceholder")}
            onChange={(e) => setFilter({ ...filter, query: e.target.value })}
            className={`min-w-40 ${field}`}
          />
        </label>
        <label className="flex flex-col gap-1">
          <span>{t("verdict")}</span>
          <select
            value={filter.verdict}
            onChange={(e) =>
              isVerdictFilter(e.target.value) && setFilter({ ...filter, verdict: e.target.value })
            }
            className={field}
          >
            <option value="">{t("any")}</option>
            {citationSupports.map((v) => (
              <option key={v} value={v}>
                {words(`verdict.${v}`)}
              </option>
            ))}
            <option value="uncited">{t("uncited")}</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>{t("quality")}</span>
          <select
            value={filter.quality}
            onChange={(e) =>
              setFilter({ ...filter, quality: qualityTiers.find((q) => q === e.target.value) ?? "" })
            }
            className={field}
          >
            <option value="">{t("any")}</option>
            {qualityTiers.map((q) => (
              <option key={q} value={q}>
                {words(`quality.${q}`)}
              </option>
            ))}
          </select>
        </label>
      </search>
      <p aria-live="polite" className="text-xs text-muted" data-testid="sources-shown">
        {shown ? t("shown", { shown, total: run.sources.length }) : t("none")}
      </p>
      {cited.length > 0 && (
        <SourceGroup title={t("cited")}>
          {cited.map(({ n, source }) => (
            <SourceItem key={source.id} source={source} number={n} verdict={verdicts.get(source.id)} />
          ))}
        </SourceGroup>
      )}
      {read.length > 0 && (
        <SourceGroup title={t("read")}>
          {read.map((s) => (
            <SourceItem key={s.id} source={s} />
          ))}
        </SourceGroup>
      )}
      {found.length > 0 && (
        <SourceGroup title={t("found")} hint={t("foundHint")}>
          {found.map((s) => (
            <SourceItem key={s.id} source={s} />
          ))}
        </SourceGroup>
      )}
    </section>
  );
}

function SourceGroup({ title, hint, children }: { title: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <h3 className="text-sm font-medium">{title}</h3>
      {hint && <p className="text-xs text-muted">{hint}</p>}
      <ul aria-label={title} className="space-y-1.5 text-sm">
        {children}
      </ul>
    </div>
  );
}

function SourceItem({
  source: s,
  number,
  verdict,
}: {
  source: SourceView;
  number?: number;
  verdict?: CitationSupport;
}) {
  const t = useTranslations("sources");
  const words = useTranslations();
  const href = /^https?:/i.test(s.url) ? safeHref(s.url) : undefined;
  const mark = verdict ? verdictMarks[verdict] : undefined;
  return (
    <li className="flex min-w-0 items-start gap-2" data-verdict={verdict}>
      {number !== undefined && <span className="w-7 shrink-0 text-right tabular-nums">[{number}]</span>}
      <DomainBadge domain={s.domain || s.url} />
      <span className="min-w-0 break-words">
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="hover:underline">
            {s.title || s.url}
          </a>
        ) : (
          <span>{s.title || s.url}</span>
        )}{" "}
        <span className="text-muted">
          {s.domain} · {labelOf(words, "run.quality", s.quality)}
          {s.readInFull ? ` · ${t("readInFull")}` : ""}
        </span>
        {verdict && mark && (
          <span className={`block text-xs ${mark.className}`}>
            <span aria-hidden="true">{mark.mark} </span>
            {words(`run.verdict.${verdict}`)}
          </span>
        )}
      </span>
    </li>
  );
}
