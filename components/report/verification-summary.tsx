"use client";

import { useTranslations } from "next-intl";
import { type RefObject, useRef } from "react";
import type { CitationSupport } from "@/lib/research/ui";
import { verdictMarks } from "./verdict";

type Counts = Partial<Record<CitationSupport, number>> & { removedUnknown?: number };

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
  const t = useTranslations("report.verification");
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
  const parts = (
    [
      { verdict: "partially_supported", key: "partly", n: stats.partially_supported ?? 0 },
      { verdict: "unsupported", key: "unsupported", n: stats.unsupported ?? 0 },
      { verdict: "unchecked", key: "unchecked", n: stats.unchecked ?? 0 },
    ] as const
  ).filter((p) => p.n > 0);
  return (
    <div data-testid="citation-check" data-print="hide" className="space-y-1 text-sm">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span data-testid="citations-supported">
          <span aria-hidden="true" className={verdictMarks.supported.className}>
            {verdictMarks.supported.mark}{" "}
          </span>
          {t("supported", { supported, total })}
        </span>
        {parts.map((p) => (
          <span key={p.verdict} className="flex items-baseline gap-x-2">
            <span aria-hidden="true">·</span>
            <button
              type="button"
              data-verdict={p.verdict}
              onClick={() => next(p.verdict)}
              title={t("next")}
              className="underline decoration-dotted underline-offset-2 hover:decoration-solid"
            >
              <span aria-hidden="true" className={verdictMarks[p.verdict].className}>
                {verdictMarks[p.verdict].mark}{" "}
              </span>
              {t(p.key, { count: p.n })}
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
  const t = useTranslations("report.verification");
  return (
    <details className="inline [&[open]]:block">
      <summary className="inline cursor-pointer text-blue-700 underline dark:text-blue-400">
        {t("how")}
      </summary>
      <span className="mt-1 block max-w-prose text-xs text-muted">
        {t("howText")}
        {removed > 0 && ` ${t("removed", { count: removed })}`}
      </span>
    </details>
  );
}
