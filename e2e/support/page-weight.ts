/**
 * What a loaded page weighs, read from the browser's own resource timing: the HTML document's
 * decoded bytes and the decoded JavaScript that had arrived by the load event. Shared by the e2e
 * assertion and `npm run bench` (report-page), so both measure the same thing.
 */
import type { Page } from "@playwright/test";

export interface PageWeight {
  htmlDecodedBytes: number;
  /** Scripts fetched by the load event (what the page needs to become usable), decoded. */
  scriptDecodedBytesByLoad: number;
  scriptsByLoad: number;
}

/**
 * Targets of issue 30: the document ≤ 3× the report's Markdown, JavaScript by load ≤ 250 KiB.
 * `scriptKiBNow`: the JavaScript as it is (585 KiB measured with the after-the-report actions and the
 * language switcher; docs/performance.md has the breakdown), held so it does not grow.
 */
export const PAGE_WEIGHT_TARGETS = { htmlToMarkdown: 3, scriptKiB: 250, scriptKiBNow: 590 };

/** Waits for the load event, then reads the weights. */
export async function pageWeight(page: Page): Promise<PageWeight> {
  await page.waitForFunction(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    return Boolean(nav && nav.loadEventEnd > 0);
  });
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
      (e) => e.initiatorType === "script" && e.responseEnd <= nav.loadEventStart,
    );
    return {
      htmlDecodedBytes: nav.decodedBodySize,
      scriptDecodedBytesByLoad: scripts.reduce((s, e) => s + e.decodedBodySize, 0),
      scriptsByLoad: scripts.length,
    };
  });
}
