"use client";

import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";

const BLOCKS = "h2,h3,h4,h5,h6,p,li,tr,pre,blockquote";
/** A block's words, without marks or numbers that differ between the draft and the final text. */
const key = (el: Element) => (el.textContent ?? "").replace(/\[\d+\]|[^\p{L}]+/gu, "").slice(0, 60);

/**
 * Keeps the reader where they are when the report's text is replaced (the streamed draft by the
 * stored report): the first block at the top of the window is remembered as the reader scrolls,
 * and after the switch the same block (same words) is put back at the same height.
 */
export function useReadingPosition(container: RefObject<HTMLElement | null>, version: string) {
  const anchor = useRef<{ words: string; top: number } | null>(null);
  const first = useRef(true);

  useEffect(() => {
    const remember = () => {
      const el = container.current;
      if (!el) return;
      anchor.current = null;
      for (const block of el.querySelectorAll(BLOCKS)) {
        const r = block.getBoundingClientRect();
        if (r.bottom <= 0) continue;
        const words = key(block);
        if (words) anchor.current = { words, top: r.top };
        if (words) break;
      }
    };
    remember();
    window.addEventListener("scroll", remember, { passive: true });
    return () => window.removeEventListener("scroll", remember);
  }, [container]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the text's version changes
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const saved = anchor.current;
    const el = container.current;
    if (!saved || !el || saved.top > window.innerHeight) return;
    for (const block of el.querySelectorAll(BLOCKS)) {
      if (key(block) !== saved.words) continue;
      const moved = block.getBoundingClientRect().top - saved.top;
      if (Math.abs(moved) > 1) window.scrollBy({ top: moved, behavior: "instant" });
      return;
    }
  }, [version]);
}
