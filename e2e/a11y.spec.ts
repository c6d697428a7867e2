/**
 * Accessibility across the app: axe (WCAG 2.1 A and AA rules) on every kind of page, in the light
 * and the dark scheme, must find no serious or critical violation. A failure prints each
 * violation with the elements it found, so the fix can start from the message.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

async function seriousViolations(page: Page): Promise<Violation[]> {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

function listViolations(where: string, violations: Violation[]): string {
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

test("home, run, share, knowledge and library pages have no serious or critical axe violations, light and dark", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await waitForIdle(request);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const { id } = await (
    await request.post("/api/runs", { data: { question: "Heat pump or gas boiler for a cold climate?" } })
  ).json();
  await waitForStatus(request, id, ["completed"]);
  const share = await (await request.post(`/api/runs/${id}/shares`)).json();
  // A run waiting for plan review shows the run page's forms (plan review, steering, cancel).
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const { id: waiting } = await (
    await request.post("/api/runs", {
      data: { question: "Heat pumps: what to review first?", settings: { planReview: true } },
    })
  ).json();
  await waitForStatus(request, waiting, ["awaiting_plan_review"], 30_000);

  const pages: [string, string][] = [
    ["home", "/"],
    ["finished run", `/runs/${id}`],
    ["run in plan review", `/runs/${waiting}`],
    ["share", new URL(share.url).pathname],
    ["knowledge", "/knowledge"],
    ["library", "/library"],
  ];
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, path] of pages) {
      await page.goto(path);
      // Hydrated and settled (a live run page keeps its event stream open, so no network idle).
      await page.locator("main").first().waitFor();
      await page.waitForTimeout(500);
      const violations = await seriousViolations(page);
      if (violations.length) found.push(listViolations(`${name} (${scheme})`, violations));
    }
  }
  expect((await request.post(`/api/runs/${waiting}/cancel`)).status()).toBe(202);
  if (found.length) console.log(found.join("\n"));
  expect(found, found.join("\n")).toEqual([]);
});
