/**
 * Browser-side timing of "open the report page and read a citation's card": every time is
 * performance.now() inside the page, i.e. milliseconds since navigation start (timeOrigin), taken
 * by an init script (MutationObserver, capture listeners, PerformanceObserver) so Playwright's own
 * round trips do not count. Test code only.
 */
import type { BrowserContext, Page } from "@playwright/test";

/** The milestones of one load, in ms since navigation start. */
export interface LoadTiming {
  responseStart: number;
  responseEnd: number;
  domContentLoaded: number;
  /** The handler around the report (CitationCards) is hydrated: hovering a marker opens its card. */
  hydrated: number;
  hoverAt: number;
  cardAt: number;
  /** The card shows the stored passage: the measured end point. */
  passageAt: number;
  /** Times the card closed again without the pointer leaving (e.g. a re-render remounted the marker). */
  cardCloses: number;
  /** Hovers needed until the card stayed open. */
  hovers: number;
  longTasks: { count: number; totalMs: number; longestMs: number };
  /** Wall time around page.goto → passage visible, as a cross-check (includes Playwright overhead). */
  wallMs: number;
}

const MARKER = "a[data-citation]";

/** Installed before any page script: records the milestones into window.__bench. */
function initScript() {
  const w = window as unknown as { __bench: Record<string, unknown> };
  const b: Record<string, unknown> = { longTasks: [] };
  w.__bench = b;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) (b.longTasks as number[][]).push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  // The latest appearance counts: a card that closes again (a re-render under the pointer) is not open.
  let card = false;
  let passage = false;
  b.cardCloses = 0;
  new MutationObserver(() => {
    const cardNow = Boolean(document.querySelector("[data-testid=citation-card]"));
    const passageNow = Boolean(document.querySelector("[data-testid=citation-passage]"));
    if (cardNow && !card) b.cardAt = performance.now();
    if (!cardNow && card) (b.cardCloses as number)++;
    if (passageNow && !passage) b.passageAt = performance.now();
    card = cardNow;
    passage = passageNow;
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener(
    "mouseover",
    (e) => {
      if (b.hoverAt === undefined && (e.target as Element).closest?.("a[data-citation]"))
        b.hoverAt = performance.now();
    },
    true,
  );
}

export async function prepareContext(context: BrowserContext): Promise<void> {
  await context.addInitScript(initScript);
}

/**
 * Loads `url` in a new page, hovers the first citation marker once it is hydrated (before that
 * React has no handler on it: a real reader would have to hover again) and waits for the card's
 * passage. `during` wraps the load (for a CPU profile).
 */
export async function loadAndHover(
  context: BrowserContext,
  url: string,
  during?: (page: Page) => {
    start(): Promise<void>;
    stop(): Promise<void>;
  },
): Promise<LoadTiming & { page: Page }> {
  const page = await context.newPage();
  const hooks = during?.(page);
  await hooks?.start();
  const t0 = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(
    (sel) => {
      // The markers are plain server HTML: the page is ready when the handler around the report
      // (CitationCards, an ancestor with React's onMouseOver) is hydrated.
      let el = document.querySelector(sel) as Element | null;
      let ok = false;
      for (; el && !ok; el = el.parentElement) {
        const key = Object.keys(el).find((k) => k.startsWith("__reactProps"));
        ok = Boolean(key && (el as unknown as Record<string, { onMouseOver?: unknown }>)[key]?.onMouseOver);
      }
      const b = (window as unknown as { __bench: Record<string, number> }).__bench;
      if (ok) b.hydrated ??= performance.now();
      return ok;
    },
    MARKER,
    { polling: "raf", timeout: 30_000 },
  );
  const hovers = await hoverUntilOpen(page);
  const wallMs = Date.now() - t0;
  await hooks?.stop();
  const timing = await page.evaluate(() => {
    const b = (window as unknown as { __bench: Record<string, unknown> }).__bench;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const tasks = (b.longTasks as number[][]).filter(([start]) => start < (b.passageAt as number));
    return {
      responseStart: nav.responseStart,
      responseEnd: nav.responseEnd,
      domContentLoaded: nav.domContentLoadedEventEnd,
      hydrated: b.hydrated as number,
      hoverAt: b.hoverAt as number,
      cardAt: b.cardAt as number,
      passageAt: b.passageAt as number,
      cardCloses: b.cardCloses as number,
      longTasks: {
        count: tasks.length,
        totalMs: tasks.reduce((s, [, d]) => s + d, 0),
        longestMs: Math.max(0, ...tasks.map(([, d]) => d)),
      },
    };
  });
  return { ...timing, hovers, wallMs, page };
}

const PASSAGE = "[data-testid=citation-passage]";

/**
 * Hovers the first marker until its card shows the passage and is still open 300 ms later; a card
 * that closes under the pointer is hovered again (move away, come back), as a reader would.
 */
async function hoverUntilOpen(page: Page): Promise<number> {
  for (let hovers = 1; hovers <= 20; hovers++) {
    const closes = await page.evaluate(
      () => (window as unknown as { __bench: { cardCloses: number } }).__bench.cardCloses,
    );
    await page.hover(MARKER);
    // The passage, or the card closing again: then hover again at once (no fixed wait inflates the time).
    const shown = await page
      .waitForFunction(
        (before) =>
          document.querySelector("[data-testid=citation-passage]") ||
          (window as unknown as { __bench: { cardCloses: number } }).__bench.cardCloses > before,
        closes,
        { polling: "raf", timeout: 5_000 },
      )
      .then(() => page.locator(PASSAGE).count())
      .catch(() => 0);
    if (shown) {
      await page.waitForTimeout(300);
      if (await page.locator(PASSAGE).first().isVisible()) return hovers;
    }
    await page.mouse.move(0, 0);
  }
  throw new Error("the citation card never stayed open");
}

/** What the page downloaded: scripts (count, bytes over the wire and decoded) and the HTML document. */
export async function transferred(page: Page) {
  return page.evaluate(() => {
    const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
      (e) => e.initiatorType === "script",
    );
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return {
      scripts: scripts.length,
      scriptTransferBytes: scripts.reduce((s, e) => s + e.transferSize, 0),
      scriptDecodedBytes: scripts.reduce((s, e) => s + e.decodedBodySize, 0),
      htmlTransferBytes: nav.transferSize,
      htmlDecodedBytes: nav.decodedBodySize,
    };
  });
}
