/**
 * Stored reports drawn lately on the server, shared between the page's two server renders of one
 * request: the server-component render draws the report (StoredReport) and the HTML render of the
 * client slot (StoredReportSlot) reads the drawn tree by key. One process-wide map (on globalThis:
 * the two renders load their own copy of this module), newest last, bounded by Markdown length.
 * The page's data then names the report by its key instead of carrying it a second time.
 */
import type { ReactNode } from "react";

interface Drawn {
  tree: ReactNode;
  chars: number;
}

const MAX_CHARS = 2_000_000;
const KEY = Symbol.for("deep-research.drawn-reports");

function store(): Map<string, Drawn> {
  const g = globalThis as unknown as Record<symbol, Map<string, Drawn> | undefined>;
  g[KEY] ??= new Map();
  return g[KEY];
}

/** The drawn tree for `key` (kept as the newest), or undefined. */
export function drawnReport(key: string): ReactNode | undefined {
  const drawn = store();
  const kept = drawn.get(key);
  if (!kept) return undefined;
  drawn.delete(key);
  drawn.set(key, kept);
  return kept.tree;
}

/** Keeps a drawn tree; the oldest go once the total passes the bound (the newest always stays). */
export function keepDrawnReport(key: string, tree: ReactNode, chars: number): void {
  const drawn = store();
  drawn.set(key, { tree, chars });
  let total = 0;
  for (const e of drawn.values()) total += e.chars;
  for (const [k, e] of drawn) {
    if (total <= MAX_CHARS || drawn.size === 1) break;
    drawn.delete(k);
    total -= e.chars;
  }
}
