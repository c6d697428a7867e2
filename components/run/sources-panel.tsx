import { labelFor, qualityLabels } from "../labels";
import { safeHref } from "../markdown-safety";
import { DomainBadge } from "../report/domain-badge";
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

/**
 * The sources the report cites (numbered as its markers) apart from those read but not cited and
 * those only found by a search; each with its quality in words and whether the page was read in full.
 * Links open the original page (a library document's library:// address is shown without a link).
 */
export function SourcesPanel({ run }: { run: RunViewJson }) {
  if (!run.sources.length) return null;
  const { cited, read, found } = groupSources(run);
  return (
    <section aria-label="Sources" data-print="sources" className="space-y-4">
      <h2 className="font-medium">Sources</h2>
      {cited.length > 0 && (
        <SourceGroup title="Cited in the report">
          {cited.map(({ n, source }) => (
            <SourceItem key={source.id} source={source} number={n} />
          ))}
        </SourceGroup>
      )}
      {read.length > 0 && (
        <SourceGroup title="Read but not cited">
          {read.map((s) => (
            <SourceItem key={s.id} source={s} />
          ))}
        </SourceGroup>
      )}
      {found.length > 0 && (
        <SourceGroup title="Found but not read" hint="Only a search result's summary was seen, not the page.">
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

function SourceItem({ source: s, number }: { source: SourceView; number?: number }) {
  const href = /^https?:/i.test(s.url) ? safeHref(s.url) : undefined;
  return (
    <li className="flex min-w-0 items-start gap-2">
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
          {s.domain} · {labelFor(qualityLabels, s.quality)}
          {s.readInFull ? " · read in full" : ""}
        </span>
      </span>
    </li>
  );
}
