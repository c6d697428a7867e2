"use client";

import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";

const BLOCKS = "h2,h3,h4,h5,h6,p,li,tr,pre,blockquote";
/** A block's words, without marks or numbers that differ between the draft and the final text. */
const key = (el: Element) => (el.textContent ?? "").replace(/\[\d+\]|[^\p{L}]+/gu, "").slice(0, 60);

/** A block by its words, and where it was: in the window, and from the top of the document. */
type Anchor = { words: string; top: number; pageTop: number };

/** The first block of the report that reaches into the window, with its place. */
function firstVisibleBlock(container: HTMLElement): Anchor | null {
  for (const block of container.querySelectorAll(BLOCKS)) {
    const r = block.getBoundingClientRect();
    if (r.bottom <= 0) continue;
    const words = key(block);
    if (words) return { words, top: r.top, pageTop: r.top + window.scrollY };
  }
  return null;
}

/**
 * Scrolls by as much as the block with the anchor's words moved in the document since it was
 * remembered (the layout shifted, not the window: a scroll of the reader's own, smooth or not,
 * moves no block in the document and is left alone).
 */
function putBack(container: HTMLElement, anchor: Anchor | null) {
  if (!anchor || anchor.top > window.innerHeight) return;
  for (const block of container.querySelectorAll(BLOCKS)) {
    if (key(block) !== anchor.words) continue;
    const moved = block.getBoundingClientRect().top + window.scrollY - anchor.pageTop;
    if (Math.abs(moved) <= 1) return;
    anchor.pageTop += moved;
    window.scrollBy({ top: moved, behavior: "instant" });
    return;
  }
}

/** How long after the run's last change the page is kept in place: the finished layout's last moves. */
const SETTLING_MS = 2000;

/**
 * Keeps the reader where they are while the run changes the page around the report: when its
 * text is replaced (the streamed draft by the stored report) and when anything above it grows or
 * shrinks (the export bar appearing, the progress card changing, the finished layout moving panels
 * into tabs). The first block at the top of the window is remembered as the reader scrolls and put
 * back at the same height after each change. Until then the browser's own scroll anchoring is off:
 * the block it anchors to is gone once the text is replaced, and two corrections of the same shift
 * would add up. `settled`: the stored report of a run that has ended — the page now changes only
 * when the reader acts (a contents menu that closes, a tab), which the browser's anchoring handles,
 * so it gets it back a moment later; a page opened settled never switches it off.
 */
export function useReadingPosition(
  container: RefObject<HTMLElement | null>,
  version: string,
  settled: boolean,
) {
  const anchor = useRef<Anchor | null>(null);
  const first = useRef(true);
  const openedSettled = useRef(settled);

  useEffect(() => {
    // The report's container appears only once there is text: read it at each event, not once here.
    const remember = () => {
      const el = container.current;
      anchor.current = el ? firstVisibleBlock(el) : null;
    };
    remember();
    window.addEventListener("scroll", remember, { passive: true });
    return () => window.removeEventListener("scroll", remember);
  }, [container]);

  useEffect(() => {
    const root = document.documentElement;
    const anchoring = root.style.overflowAnchor;
    root.style.overflowAnchor = "none";
    return () => {
      root.style.overflowAnchor = anchoring;
    };
  }, []);

  useEffect(() => {
    if (openedSettled.current) return;
    // A change of size anywhere on the page may move the block; at the very top the reader is not
    // reading the report yet, and the page stays where it is.
    const sizes = new ResizeObserver(() => {
      const el = container.current;
      if (el && window.scrollY > 0) putBack(el, anchor.current);
    });
    sizes.observe(document.body);
    const timer = settled ? setTimeout(() => sizes.disconnect(), SETTLING_MS) : undefined;
    return () => {
      clearTimeout(timer);
      sizes.disconnect();
    };
  }, [container, settled]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the text's version changes
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const el = container.current;
    if (el) putBack(el, anchor.current);
  }, [version]);
}
