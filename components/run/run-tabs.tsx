"use client";

import { type KeyboardEvent, useEffect, useRef, useState } from "react";

export interface RunTab {
  id: string;
  label: string;
  content: React.ReactNode;
}

/**
 * Tabs after the report (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs, only
 * the selected tab is in the tab order. A panel's content is drawn in the browser once its tab is
 * first shown, then kept (hidden) when another is chosen: the page's document carries the report,
 * not every panel about how it was researched.
 */
export function RunTabs({ tabs, label }: { tabs: RunTab[]; label: string }) {
  const [selected, setSelected] = useState(tabs[0]?.id);
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (selected) setShown((s) => (s.has(selected) ? s : new Set([...s, selected])));
  }, [selected]);
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const ids = tabs.map((t) => t.id).join(" ");
  // A link to a tab (e.g. the knowledge page's "/runs/…#sources") opens it and scrolls to it.
  useEffect(() => {
    const openFromHash = () => {
      const id = window.location.hash.slice(1);
      if (!ids.split(" ").includes(id)) return;
      setSelected(id);
      refs.current[id]?.scrollIntoView({ block: "start" });
    };
    openFromHash();
    window.addEventListener("hashchange", openFromHash);
    return () => window.removeEventListener("hashchange", openFromHash);
  }, [ids]);
  const move = (e: KeyboardEvent, index: number) => {
    const next =
      e.key === "ArrowRight"
        ? (index + 1) % tabs.length
        : e.key === "ArrowLeft"
          ? (index - 1 + tabs.length) % tabs.length
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    setSelected(tabs[next].id);
    refs.current[tabs[next].id]?.focus();
  };
  return (
    <div className="space-y-4">
      <div
        role="tablist"
        aria-label={label}
        className="flex gap-1 overflow-x-auto border-b border-zinc-200 dark:border-zinc-800"
      >
        {tabs.map((t, i) => {
          const on = t.id === selected;
          return (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[t.id] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={on}
              aria-controls={`panel-${t.id}`}
              tabIndex={on ? 0 : -1}
              onClick={() => setSelected(t.id)}
              onKeyDown={(e) => move(e, i)}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-sm ${on ? "border-zinc-900 font-medium dark:border-zinc-100" : "border-transparent text-muted hover:text-inherit"}`}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      {tabs.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`panel-${t.id}`}
          aria-labelledby={`tab-${t.id}`}
          hidden={t.id !== selected}
        >
          {shown.has(t.id) && t.content}
        </div>
      ))}
    </div>
  );
}
