/**
 * Accessibility across the app: axe (WCAG 2.1 A and AA rules) on every kind of page, in the light
 * and the dark scheme, must find no serious or critical violation. A failure prints each
 * violation with the elements it found, so the fix can start from the message.
 */
import { expect, type Page, test } from "@playwright/test";
import { listViolations, seriousViolations } from "./support/axe.ts";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { clarificationRule, researchScript } from "./support/research-script.ts";
import { signedOut } from "./support/session.ts";

/** Opens `path` and lists its serious and critical violations, named by `where`. */
async function check(page: Page, path: string, where: string): Promise<string[]> {
  await page.goto(path);
  // Hydrated and settled (a live run page keeps its event stream open, so no network idle).
  await page.locator("main").first().waitFor();
  await page.waitForTimeout(500);
  const violations = await seriousViolations(page);
  return violations.length ? [listViolations(where, violations)] : [];
}

test("home, run, share, knowledge, library, account, admin and sign-in pages have no serious or critical axe violations, light and dark", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  await waitForIdle(request);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const { id } = await (
    await request.post("/api/runs", { data: { question: "Heat pump or gas boiler for a cold climate?" } })
  ).json();
  await waitForStatus(request, id, ["completed"]);
  const share = await (await request.post(`/api/runs/${id}/shares`)).json();
  // Runs waiting for plan review and for an answer show the run page's forms.
  const rules = researchScript({ webUrl: webUrl() });
  rules.unshift(clarificationRule);
  await scriptLlm(rules);
  const waiting = async (settings: Record<string, boolean>, status: string) => {
    const { id: w } = await (
      await request.post("/api/runs", { data: { question: "Heat pumps: what first?", settings } })
    ).json();
    await waitForStatus(request, w, [status], 30_000);
    return w as string;
  };
  const reviewing = await waiting({ planReview: true }, "awaiting_plan_review");
  const asking = await waiting({ clarification: true }, "awaiting_clarification");

  const pages: [string, string][] = [
    ["home", "/"],
    ["finished run", `/runs/${id}`],
    ["run in plan review", `/runs/${reviewing}`],
    ["run asking a question", `/runs/${asking}`],
    ["share", new URL(share.url).pathname],
    ["knowledge", "/knowledge"],
    ["library", "/library"],
    ["account", "/account"],
    ["admin", "/admin"],
  ];
  const found: string[] = [];
  const visitor = await browser.newContext({ storageState: signedOut });
  const signIn = await visitor.newPage();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, path] of pages) found.push(...(await check(page, path, `${name} (${scheme})`)));
    await signIn.emulateMedia({ colorScheme: scheme });
    found.push(...(await check(signIn, "/sign-in", `sign-in (${scheme})`)));
  }
  // Phone width: nothing makes the page scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [name, path] of pages) {
    await page.goto(path);
    await page.locator("main").first().waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    if (overflow > 0) found.push(`${name} (390 px): scrolls sideways by ${overflow} px`);
  }
  await visitor.close();
  for (const w of [reviewing, asking])
    expect((await request.post(`/api/runs/${w}/cancel`)).status()).toBe(202);
  expect(found, found.join("\n")).toEqual([]);
});
