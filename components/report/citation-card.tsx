"use client";

import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import type { CitationSupport } from "@/lib/research/vocabulary";
import { verdictLabels } from "../labels";
import { passageExcerpt } from "./best-sentence";
import type { CitationCard, CitedClaim } from "./citation-data";
import { DomainBadge } from "./domain-badge";
import { verdictMarks } from "./verdict";

export type Passages = { state: "loading" } | { state: "failed" } | { state: "loaded"; claims: CitedClaim[] };

/**
 * What one citation's card says: the source, the marker's verdict in words, and the sentence of the
 * stored passage that best matches the claim, highlighted in a short excerpt ("Show more" gives the
 * whole passage), with the check's reason. `claim`: the sentence of the report that the marker closes.
 */
export function CitationCardBody({
  card,
  verdict,
  claim,
  passages,
  sourceLink,
  onClose,
}: {
  card: CitationCard;
  verdict?: CitationSupport;
  claim: CitedClaim | undefined;
  passages: Passages;
  /** On touch (the tap did not jump to the source entry): a link to it, which then closes the sheet. */
  sourceLink?: () => void;
  /** The bottom sheet's Close button. */
  onClose?: () => void;
}) {
  const t = useTranslations("report.card");
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
          {verdictLabels[verdict]}
        </span>
      )}
      <ClaimPassage passages={passages} claim={claim} />
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

/** The claim's own stored passage (or, missing that, the source's first one that has text). */
function pickPassage(passages: CitedClaim[], claim: CitedClaim | undefined): CitedClaim | undefined {
  const withText = passages.filter((c) => c.passage);
  return (
    withText.find((c) => c.sentence === claim?.sentence && c.support === claim?.support) ??
    withText.find((c) => c.sentence === claim?.sentence) ??
    withText.find((c) => c.support === claim?.support) ??
    withText[0]
  );
}

function ClaimPassage({ passages, claim }: { passages: Passages; claim: CitedClaim | undefined }) {
  const t = useTranslations("report.card");
  const [more, setMore] = useState(false);
  const chosen = passages.state === "loaded" ? pickPassage(passages.claims, claim) : undefined;
  const excerpt = useMemo(
    () => (chosen?.passage ? passageExcerpt(chosen.passage, claim?.sentence ?? chosen.sentence) : null),
    [chosen, claim],
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
      {chosen.reason && <span className="block text-xs text-muted">{chosen.reason}</span>}
    </span>
  );
}
