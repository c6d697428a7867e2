"use client";

import { useTranslations } from "next-intl";
import {
  createContext,
  type FocusEvent,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { CitationSupport } from "@/lib/research/ui";
import { api } from "../api-client";
import { CitationCardBody, type Passages } from "./citation-card";
import type { CitationCard, CitedClaim, ReportCitations } from "./citation-data";

interface OpenCard {
  card: CitationCard;
  verdict?: CitationSupport;
  /** The marker's paragraph, to tell which of the source's claims it closes. */
  context: string;
  anchor: HTMLAnchorElement;
  /** Opened by a tap: a bottom sheet instead of a card beside the marker. */
  sheet: boolean;
  /** Opened by the pointer resting on the marker, or by focus: each closes it only by its own leaving. */
  by: "pointer" | "focus";
}

const ReportCitationsContext = createContext<ReportCitations | undefined>(undefined);

/** The report's citations, for a report drawn inside CitationCards. */
export const useReportCitations = () => useContext(ReportCitationsContext);

const markerOf = (target: EventTarget | null) =>
  (target instanceof Element ? target.closest("a[data-citation]") : null) as HTMLAnchorElement | null;

/** The text of the paragraph (or list item, cell, quote) a marker stands in: what its claim says. */
function contextOf(anchor: Element): string {
  return (anchor.closest("p,li,td,th,blockquote") ?? anchor.parentElement)?.textContent ?? "";
}

const LOADING: Passages = { state: "loading" };
const FAILED: Passages = { state: "failed" };

/** Each source's stored passages, fetched once per page from the owner's API (or carried by the cards). */
function usePassages(open: OpenCard | null, passagesFrom: string | undefined): Passages {
  const fetched = useRef(new Map<string, Promise<(CitedClaim & { number: number })[]>>());
  const [loaded, setLoaded] = useState<{ key: string; passages: Passages } | null>(null);
  const card = open?.card;
  const inline = card?.claims.some((c) => c.passage !== undefined);
  const key = card ? `${card.sourceId}:${card.number}` : "";
  useEffect(() => {
    if (!card || inline || !passagesFrom) return;
    let request = fetched.current.get(card.sourceId);
    if (!request) {
      request = api<{ citations: (CitedClaim & { number: number })[] }>(
        `${passagesFrom}${encodeURIComponent(card.sourceId)}`,
      ).then((view) => view.citations);
      // A failed read is tried again the next time the card opens.
      request.catch(() => fetched.current.delete(card.sourceId));
      fetched.current.set(card.sourceId, request);
    }
    let live = true;
    request.then(
      (all) =>
        live &&
        setLoaded({
          key,
          passages: { state: "loaded", claims: all.filter((c) => c.number === card.number) },
        }),
      () => live && setLoaded({ key, passages: { state: "failed" } }),
    );
    return () => {
      live = false;
    };
  }, [card, inline, passagesFrom, key]);
  const inlineClaims = useMemo(
    () => (inline && card ? { state: "loaded" as const, claims: card.claims } : undefined),
    [inline, card],
  );
  if (inlineClaims) return inlineClaims;
  if (!passagesFrom) return FAILED;
  return loaded?.key === key ? loaded.passages : LOADING;
}

/** Where the card goes: below the marker if it fits, else above, else wherever there is most room. */
function placeCard(anchor: DOMRect, card: { width: number; height: number }) {
  const gap = 6;
  const margin = 8;
  const below = window.innerHeight - anchor.bottom - gap - margin;
  const above = anchor.top - gap - margin;
  const top =
    card.height <= below
      ? anchor.bottom + gap
      : card.height <= above
        ? anchor.top - gap - card.height
        : Math.max(margin, window.innerHeight - margin - card.height);
  const left = Math.max(margin, Math.min(anchor.left, window.innerWidth - card.width - margin));
  return { top, left };
}

/**
 * The report's citation cards: one handler around the report (its markers are plain links) opens
 * one card at a time — on hover or keyboard focus beside the marker, at most 40% of the viewport high
 * and scrolling inside; on a tap (touch) as a bottom sheet with a link to the source entry. Escape
 * and a click outside close it; the pointer may move onto it (WCAG 1.4.13).
 */
export function CitationCards({ citations, children }: { citations?: ReportCitations; children: ReactNode }) {
  const t = useTranslations("report");
  const cards = useMemo(() => new Map((citations?.cards ?? []).map((c) => [c.number, c])), [citations]);
  const [open, setOpen] = useState<OpenCard | null>(null);
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const pointer = useRef("mouse");
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const passages = usePassages(open, citations?.passagesFrom);

  const show = useCallback(
    (anchor: HTMLAnchorElement, sheet: boolean, by: OpenCard["by"]) => {
      clearTimeout(closing.current);
      const card = cards.get(Number(anchor.dataset.citation));
      if (!card) return;
      const verdict = anchor.dataset.verdict as CitationSupport | undefined;
      setOpen((o) =>
        o?.anchor === anchor && o.sheet === sheet && o.by === by
          ? o
          : { card, verdict, context: contextOf(anchor), anchor, sheet, by },
      );
    },
    [cards],
  );
  // The card shown now: a close meant for another marker's card (the pointer leaving a marker after
  // focus opened another one, a scroll that took the old marker away) leaves this one open.
  const shown = useRef(open);
  shown.current = open;
  /** Closes the card, or only the card of `anchor` when one is given. */
  const close = useCallback((anchor?: Element) => {
    if (anchor && shown.current?.anchor !== anchor) return;
    clearTimeout(closing.current);
    setOpen(null);
    setAt(null);
  }, []);
  const hideSoon = (anchor: Element | null) => {
    clearTimeout(closing.current);
    if (anchor) closing.current = setTimeout(() => close(anchor), 150);
  };
  useEffect(() => () => clearTimeout(closing.current), []);

  // Escape, a click or tap outside, and (for the card beside a marker) scrolling it out of view close it.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      if (open.sheet) open.anchor.focus({ preventScroll: true });
      close();
    };
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!cardRef.current?.contains(t) && !open.anchor.contains(t)) close();
    };
    const onScroll = () => {
      if (open.sheet) return;
      const r = open.anchor.getBoundingClientRect();
      if (r.bottom < 0 || r.top > window.innerHeight) return close(open.anchor);
      const el = cardRef.current;
      if (el) setAt(placeCard(r, { width: el.offsetWidth, height: el.offsetHeight }));
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
      window.removeEventListener("scroll", onScroll);
    };
  }, [open, close]);

  // Placed once its height is known, and again whenever its size changes (the passage arrives, "show more").
  useLayoutEffect(() => {
    const el = cardRef.current;
    if (!open || open.sheet || !el) return;
    const place = () => {
      const next = placeCard(open.anchor.getBoundingClientRect(), {
        width: el.offsetWidth,
        height: el.offsetHeight,
      });
      setAt((at) => (at && at.top === next.top && at.left === next.left ? at : next));
    };
    place();
    const observer = new ResizeObserver(place);
    observer.observe(el);
    return () => observer.disconnect();
  }, [open]);

  const handlers = {
    onPointerDown: (e: { pointerType: string }) => {
      pointer.current = e.pointerType;
    },
    onKeyDown: () => {
      pointer.current = "keyboard";
    },
    onMouseOver: (e: MouseEvent) => {
      const a = markerOf(e.target);
      if (a && pointer.current !== "touch") show(a, false, "pointer");
    },
    onMouseOut: (e: MouseEvent) => {
      const a = markerOf(e.target);
      if (a && open?.by === "pointer" && !open.sheet && !cardRef.current?.contains(e.relatedTarget as Node))
        hideSoon(a);
    },
    onFocus: (e: FocusEvent) => {
      const a = markerOf(e.target);
      if (a && pointer.current !== "touch") show(a, false, "focus");
    },
    onBlur: (e: FocusEvent) => {
      const a = markerOf(e.target);
      if (a && open?.by === "focus" && !open.sheet && !cardRef.current?.contains(e.relatedTarget as Node))
        hideSoon(a);
    },
    onClick: (e: MouseEvent) => {
      const a = markerOf(e.target);
      if (!a || (pointer.current !== "touch" && pointer.current !== "pen")) return;
      // A tap previews the source in a sheet; the sheet's link goes on to the entry.
      e.preventDefault();
      show(a, true, "pointer");
    },
  };

  return (
    <div {...handlers}>
      <ReportCitationsContext.Provider value={citations}>{children}</ReportCitationsContext.Provider>
      {open && (
        <div
          ref={cardRef}
          role="dialog"
          aria-label={t("cardLabel", { number: open.card.number, title: open.card.title })}
          data-citation-card=""
          data-testid="citation-card"
          data-sheet={open.sheet ? "" : undefined}
          onMouseEnter={() => clearTimeout(closing.current)}
          onMouseLeave={() => open.by === "pointer" && !open.sheet && hideSoon(open.anchor)}
          style={
            open.sheet
              ? undefined
              : { top: at?.top ?? 0, left: at?.left ?? 0, visibility: at ? undefined : "hidden" }
          }
          className={`fixed z-50 max-h-[40vh] space-y-2 overflow-y-auto overscroll-contain border border-zinc-200 bg-white p-3 text-left text-sm leading-5 text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 ${open.sheet ? "inset-x-0 bottom-0 rounded-t-xl pb-6" : "w-80 max-w-[calc(100vw-16px)] rounded-lg"}`}
        >
          <CitationCardBody
            card={open.card}
            verdict={open.verdict}
            context={open.context}
            passages={passages}
            sourceLink={open.sheet ? () => close() : undefined}
            onClose={open.sheet ? () => close() : undefined}
          />
        </div>
      )}
    </div>
  );
}
