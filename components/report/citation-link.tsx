"use client";

import { createContext, useContext, useEffect, useId, useRef, useState } from "react";
import type { CitationSupport } from "@/lib/research/ui";
import { verdictLabels } from "../labels";
import type { CitationCard, CitedClaim, ReportCitations } from "./citation-data";
import { DomainBadge } from "./domain-badge";
import { citationName, verdictMarks } from "./verdict";

type Passages =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "failed" }
  | { state: "loaded"; claims: CitedClaim[] };

/** The card's claims: those that came with it, or, on the owner's page, the stored ones fetched once. */
function usePassages(card: CitationCard | undefined, passagesFrom: string | undefined, open: boolean) {
  const inline = card?.claims.some((c) => c.passage !== undefined);
  const [passages, setPassages] = useState<Passages>({ state: "idle" });
  useEffect(() => {
    if (!open || inline || !card || !passagesFrom || passages.state !== "idle") return;
    setPassages({ state: "loading" });
    fetch(`${passagesFrom}${encodeURIComponent(card.sourceId)}`, { headers: { accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((view: { citations: (CitedClaim & { number: number })[] }) =>
        setPassages({ state: "loaded", claims: view.citations.filter((c) => c.number === card.number) }),
      )
      .catch(() => setPassages({ state: "failed" }));
  }, [open, inline, card, passagesFrom, passages.state]);
  if (inline) return { state: "loaded" as const, claims: card?.claims ?? [] };
  return passages;
}

/** The report's citations for markers rendered without their card (ReportCitations.cardsInContext). */
export const CitationCardsContext = createContext<ReportCitations | undefined>(undefined);

/**
 * A citation marker: a link to its source entry, its verdict as a mark and in its accessible name,
 * and on hover or keyboard focus a card with the source and the passage the claim rests on.
 * Escape closes the card; the pointer may move onto it (WCAG 1.4.13).
 */
export function CitationLink({
  number,
  verdict,
  card: ownCard,
  passagesFrom: ownPassagesFrom,
}: {
  number: number;
  verdict?: CitationSupport;
  card?: CitationCard;
  passagesFrom?: string;
}) {
  const provided = useContext(CitationCardsContext);
  const card = ownCard ?? provided?.cards.find((c) => c.number === number);
  const passagesFrom = ownPassagesFrom ?? provided?.passagesFrom;
  const [open, setOpen] = useState(false);
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  const anchor = useRef<HTMLAnchorElement>(null);
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = useId();
  const passages = usePassages(card, passagesFrom, open);

  const show = () => {
    clearTimeout(closing.current);
    const r = anchor.current?.getBoundingClientRect();
    if (r) setAt({ top: r.bottom + 6, left: Math.max(8, Math.min(r.left, window.innerWidth - 328)) });
    setOpen(true);
  };
  const hide = () => {
    closing.current = setTimeout(() => setOpen(false), 150);
  };
  useEffect(() => () => clearTimeout(closing.current), []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    const onScroll = () => setOpen(false);
    window.addEventListener("keydown", onKey);
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("scroll", onScroll);
    };
  }, [open]);

  const mark = verdict ? verdictMarks[verdict] : undefined;
  return (
    <>
      <a
        ref={anchor}
        href={`#source-${number}`}
        aria-label={citationName(number, verdict)}
        aria-describedby={open && card ? id : undefined}
        data-citation={number}
        data-verdict={verdict}
        className="citation whitespace-nowrap underline decoration-dotted underline-offset-2"
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
      >
        [{number}]
        {mark && (
          <sup aria-hidden="true" className={`ml-px font-semibold ${mark.className}`}>
            {mark.mark}
          </sup>
        )}
      </a>
      {open && card && at && (
        <span
          id={id}
          role="tooltip"
          data-testid="citation-card"
          onMouseEnter={show}
          onMouseLeave={hide}
          style={{ top: at.top, left: at.left }}
          className="fixed z-50 block w-80 max-w-[calc(100vw-16px)] space-y-2 rounded-lg border border-zinc-200 bg-white p-3 text-left text-sm leading-5 text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <span className="flex items-center gap-2">
            <DomainBadge domain={card.domain || card.title} />
            <span className="block min-w-0">
              <span className="block truncate font-medium">{card.title}</span>
              {card.domain && <span className="block truncate text-xs text-muted">{card.domain}</span>}
            </span>
          </span>
          {verdict && (
            <span className={`block font-medium ${mark?.className}`}>{verdictLabels[verdict]}</span>
          )}
          <ClaimPassages passages={passages} verdict={verdict} />
        </span>
      )}
    </>
  );
}

function ClaimPassages({ passages, verdict }: { passages: Passages; verdict?: CitationSupport }) {
  if (passages.state === "loading" || passages.state === "idle") {
    return <span className="block text-xs text-muted">Loading the stored passage…</span>;
  }
  if (passages.state === "failed") {
    return <span className="block text-xs text-muted">The stored passage could not be loaded.</span>;
  }
  // The claim this marker closes first (its verdict), then the source's other claims.
  const claims = [...passages.claims].sort(
    (a, b) => Number(b.support === verdict) - Number(a.support === verdict),
  );
  const shown = claims.filter((c) => c.passage).slice(0, 2);
  if (!shown.length)
    return <span className="block text-xs text-muted">No stored passage for this claim.</span>;
  return (
    <>
      {shown.map((c) => (
        <span key={`${c.sentence}\u0000${c.passage}`} className="block space-y-1">
          <span
            data-testid="citation-passage"
            className="block line-clamp-6 border-l-2 border-zinc-300 pl-2 italic dark:border-zinc-600"
          >
            {c.passage}
          </span>
          {c.reason && <span className="block text-xs text-muted">{c.reason}</span>}
        </span>
      ))}
    </>
  );
}
