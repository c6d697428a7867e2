/**
 * Accessibility checks shared by the specs: axe's WCAG 2.1 A and AA rules, of which a serious or
 * critical violation fails; a failure names each violation with the elements it found, so the fix
 * can start from the message. Also the phone-width rule: no page scrolls sideways at 390 px.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

export async function seriousViolations(page: Page): Promise<Violation[]> {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

export function listViolations(where: string, violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${where}: [${v.impact}] ${v.id}: ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(" ")}: ${n.failureSummary?.replaceAll("\n", " ")}`)
          .join("\n"),
    )
    .join("\n");
}

/** No serious or critical violation on the page as it is, in the light and the dark scheme. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = await seriousViolations(page);
    if (violations.length) found.push(listViolations(`${label} (${colorScheme})`, violations));
  }
  await page.emulateMedia({ colorScheme: "light" });
  expect(found, `axe on ${label}`).toEqual([]);
}

/** The page fits a 390 px wide phone screen: nothing makes it scroll sideways. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}
