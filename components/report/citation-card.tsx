"use client";

import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import type { CitationSupport } from "@/lib/research/ui";
import { becauseText } from "../run/because-text";
import { contentWords, passageExcerpt } from "./best-sentence";
import type { CitationCard, CitedClaim } from "./citation-data";
import { DomainBadge } from "./domain-badge";
import { verdictMarks } from "./verdict";

export type Passages = { state: "loading" } | { state: "failed" } | { state: "loaded"; claims: CitedClaim[] };

/**
 * What one citation's card says: the source, the marker's verdict in words, and the sentence of the
 * stored passage that best matches the claim, highlighted in a short excerpt ("Show more" gives the
 * whole passage), with the check's reason. `context`: the marker's paragraph in the report.
 */
export function CitationCardBody({
  card,
  verdict,
  context,
  passages,
  sourceLink,
  onClose,
}: {
  card: CitationCard;
  verdict?: CitationSupport;
  context: string;
  passages: Passages;
  /** On touch (the tap did not jump to the source entry): a link to it, which then closes the sheet. */
  sourceLink?: () => void;
  /** The bottom sheet's Close button. */
  onClose?: () => void;
}) {
  const t = useTranslations("report.card");
  const verdictWords = useTranslations("report.verdict");
  const mark = verdict ? verdictMarks[verdict] : undefined;
  return (
    <>
      {onClose && (
        <button
          type="button"
          onClick={onClose}
          className="float-right rounded border border-zinc-300 px-2 text-xs dark:border-zinc-700"
        >
          {t("close")}
        </button>
      )}
      <span className="flex items-center gap-2">
        <DomainBadge domain={card.domain || card.title} />
        <span className="block min-w-0">
          <span className="block truncate font-medium">{card.title}</span>
          {card.domain && <span className="block truncate text-xs text-muted">{card.domain}</span>}
        </span>
      </span>
      {verdict && mark && (
        <span className={`block font-medium ${mark.className}`}>
          <span aria-hidden="true">{mark.mark} </span>
          {verdictWords(verdict)}
        </span>
      )}
      <ClaimPassage passages={passages} verdict={verdict} context={context} />
      {sourceLink && (
        <a
          href={`#source-${card.number}`}
          onClick={sourceLink}
          className="block text-blue-700 underline dark:text-blue-400"
        >
          {t("toSource", { number: card.number })}
        </a>
      )}
    </>
  );
}

/**
 * The claim a marker closes, among its source's claims with text: those with the marker's verdict
 * first, then the one sharing most words with the marker's paragraph.
 */
export function pickClaim(
  claims: readonly CitedClaim[],
  verdict: CitationSupport | undefined,
  context: string,
): CitedClaim | undefined {
  const withText = claims.filter((c) => c.passage);
  const same = withText.filter((c) => c.support === verdict);
  const pool = same.length ? same : withText;
  const around = new Set(contentWords(context));
  let best: CitedClaim | undefined;
  let bestScore = -1;
  for (const c of pool) {
    const score = contentWords(c.sentence).filter((w) => around.has(w)).length;
    if (score > bestScore) [best, bestScore] = [c, score];
  }
  return best;
}

function ClaimPassage({
  passages,
  verdict,
  context,
}: {
  passages: Passages;
  verdict?: CitationSupport;
  context: string;
}) {
  const t = useTranslations("report.card");
  const words = useTranslations();
  const [more, setMore] = useState(false);
  const chosen = useMemo(
    () => (passages.state === "loaded" ? pickClaim(passages.claims, verdict, context) : undefined),
    [passages, verdict, context],
  );
  const excerpt = useMemo(
    () => (chosen?.passage ? passageExcerpt(chosen.passage, chosen.sentence || context) : null),
    [chosen, context],
  );
  if (passages.state === "loading") {
    return <span className="block text-xs text-muted">{t("loading")}</span>;
  }
  if (passages.state === "failed") {
    return <span className="block text-xs text-muted">{t("failed")}</span>;
  }
  if (!chosen || !excerpt) {
    return <span className="block text-xs text-muted">{t("none")}</span>;
  }
  const shown = more ? excerpt.full : excerpt;
  return (
    <span className="block space-y-1">
      <span
        data-testid="citation-passage"
        className="block border-l-2 border-zinc-300 pl-2 dark:border-zinc-600 [overflow-wrap:anywhere]"
      >
        {!more && excerpt.cutBefore && "… "}
        {shown.before}
        <mark className="rounded-sm bg-amber-100 px-0.5 text-inherit dark:bg-amber-900/60">
          {shown.match}
        </mark>
        {shown.after}
        {!more && excerpt.cutAfter && " …"}
      </span>
      {(excerpt.cutBefore || excerpt.cutAfter) && (
        <button
          type="button"
          onClick={() => setMore((m) => !m)}
          aria-expanded={more}
          className="text-xs text-blue-700 underline dark:text-blue-400"
        >
          {more ? t("less") : t("more")}
        </button>
      )}
      {chosen.reason && (
        <span className="block text-xs text-muted">{becauseText(words, chosen.because, chosen.reason)}</span>
      )}
    </span>
  );
}
