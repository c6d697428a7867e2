"use client";

import { type RefObject, useRef } from "react";
import type { CitationSupport } from "@/lib/research/vocabulary";
import { verdictMarks } from "./verdict";

type Counts = Partial<Record<CitationSupport, number>> & { removedUnknown?: number };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * One readable line on how far the report's citations hold: "42 of 45 citations supported by their
 * sources · 3 partly · how we check". Each count other than "supported" is a button that moves to
 * the next marker with that verdict (focusing it opens its card), so weak citations are findable.
 */
export function VerificationSummary({
  stats,
  container,
}: {
  stats: Counts;
  container: RefObject<HTMLElement | null>;
}) {
  const supported = stats.supported ?? 0;
  const total =
    supported + (stats.partially_supported ?? 0) + (stats.unsupported ?? 0) + (stats.unchecked ?? 0);
  const turn = useRef<Partial<Record<CitationSupport, number>>>({});
  if (!total) return null;
  const next = (verdict: CitationSupport) => {
    const markers = [
      ...(container.current?.querySelectorAll<HTMLAnchorElement>(`a.cite[data-verdict="${verdict}"]`) ?? []),
    ];
    if (!markers.length) return;
    const k = (turn.current[verdict] ?? -1) + 1;
    turn.current[verdict] = k % markers.length;
    const marker = markers[k % markers.length];
    for (const m of container.current?.querySelectorAll("a.cite[data-found]") ?? [])
      m.removeAttribute("data-found");
    marker.setAttribute("data-found", "");
    marker.scrollIntoView({ block: "center" });
    marker.focus({ preventScroll: true });
  };
  const parts: { verdict: CitationSupport; text: string; n: number }[] = [
    { verdict: "partially_supported" as const, text: "partly", n: stats.partially_supported ?? 0 },
    { verdict: "unsupported" as const, text: "not supported", n: stats.unsupported ?? 0 },
    { verdict: "unchecked" as const, text: "not checked", n: stats.unchecked ?? 0 },
  ].filter((p) => p.n > 0);
  return (
    <div data-testid="citation-check" data-print="hide" className="space-y-1 text-sm">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span data-testid="citations-supported">
          <span aria-hidden="true" className={verdictMarks.supported.className}>
            {verdictMarks.supported.mark}{" "}
          </span>
          {supported} of {plural(total, "citation", "citations")} supported by their sources
        </span>
        {parts.map((p) => (
          <span key={p.verdict} className="flex items-baseline gap-x-2">
            <span aria-hidden="true">·</span>
            <button
              type="button"
              data-verdict={p.verdict}
              onClick={() => next(p.verdict)}
              title="Show the next one in the report"
              className="underline decoration-dotted underline-offset-2 hover:decoration-solid"
            >
              <span aria-hidden="true" className={verdictMarks[p.verdict].className}>
                {verdictMarks[p.verdict].mark}{" "}
              </span>
              {p.n} {p.text}
            </button>
          </span>
        ))}
        <span aria-hidden="true">·</span>
        <HowWeCheck removed={stats.removedUnknown ?? 0} />
      </div>
    </div>
  );
}

function HowWeCheck({ removed }: { removed: number }) {
  return (
    <details className="inline [&[open]]:block">
      <summary className="inline cursor-pointer text-blue-700 underline dark:text-blue-400">
        how we check
      </summary>
      <span className="mt-1 block max-w-prose text-xs text-muted">
        Each cited sentence is compared with the text stored from its source when it was read: first word by
        word, then, where that cannot settle it, by a model that sees only the sentence and the passage.
        Supported (✓): the passage says it. Partly (◐): it backs part of the sentence. Not supported (✗): it
        does not say it. Not checked (○): no check was made (a limit on checks, or the checking model failed).
        {removed > 0 &&
          ` ${plural(removed, "citation", "citations")} to ${removed === 1 ? "a source" : "sources"} that were never read ${removed === 1 ? "was" : "were"} removed.`}
      </span>
    </details>
  );
}
