"use client";
/**
 * Keyboard review: j/k move between the cards, a approves, r rejects, e edits the focused card.
 * Keys typed into a field (the add form, an edit) are left alone, as are modified keys.
 */
import { useEffect } from "react";

const ITEM = "[data-knowledge-item]";

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function move(items: HTMLElement[], current: number, step: number) {
  const next = current === -1 ? (step > 0 ? 0 : items.length - 1) : current + step;
  const target = items[Math.max(0, Math.min(items.length - 1, next))];
  target?.focus();
  target?.scrollIntoView({ block: "nearest" });
}

export function useReviewKeys() {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
      const items = [...document.querySelectorAll<HTMLElement>(ITEM)];
      const active = document.activeElement;
      const current = items.findIndex((el) => el === active || el.contains(active));
      const click = (what: string) => {
        const button = items[current]?.querySelector<HTMLButtonElement>(`[data-review="${what}"]`);
        if (!button || button.disabled) return;
        e.preventDefault();
        button.click();
      };
      switch (e.key) {
        case "j":
          e.preventDefault();
          move(items, current, 1);
          break;
        case "k":
          e.preventDefault();
          move(items, current, -1);
          break;
        case "a":
          click("approve");
          break;
        case "r":
          click("reject");
          break;
        case "e":
          click("edit");
          break;
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
