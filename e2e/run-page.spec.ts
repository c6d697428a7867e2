/**
 * The run page as a person watches it: a run started from the home form, followed live (the feed's
 * newest entry is the latest event in words, one round card per supervision round, the coverage
 * chart's numbers are the API's), then read when done (the report first, the rest in tabs), at
 * desktop and phone width, with screenshots of both states kept as test artifacts.
 */
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { describeEvent } from "../components/run/describe-event.ts";
import type { ResearchEvent } from "../lib/research/events.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./support/axe.ts";
import { english } from "./support/english.ts";
import { baseUrl, isHanging, scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { sessionHeaders, sharedApp } from "./support/session.ts";
import { readSse } from "./support/sse.ts";

type Stored = ResearchEvent & { seq: number };
type RunJson = {
  status: string;
  coverage: { directives?: { directiveId: string; sourceCount: number }[] } | null;
  supervisionHistory: { round: number; coverageAfter: { heuristic?: { confidence: number } } | null }[];
};

const QUESTION = "Heat pump or gas boiler for a home in a cold climate: which costs less to run?";
/** The feed leaves token counts to the Usage panel. */
const notInFeed = new Set(["usage.updated"]);

/** The run's stored events so far (the stream stays open while the run goes: read it for a moment). */
async function storedEvents(id: string): Promise<Stored[]> {
  const reading = await readSse(`${baseUrl()}/api/runs/${id}/events`, sessionHeaders(sharedApp()), 500);
  return reading.blocks.filter((b) => b.id !== undefined && b.data).map((b) => JSON.parse(b.data!) as Stored);
}

async function runJson(page: Page, id: string): Promise<RunJson> {
  return (await page.request.get(`/api/runs/${id}`)).json();
}

/**
 * The feed's newest entry is the latest stored event, described in words. Events keep arriving, so
 * it is checked at a quiet moment: the page showed the same entry before and after the API was read.
 */
async function expectLatestEntry(page: Page, id: string): Promise<string> {
  let status = "";
  const entry = page.getByTestId("activity-latest");
  await expect(async () => {
    const before = await entry.getAttribute("data-seq");
    const events = (await storedEvents(id)).filter((e) => !notInFeed.has(e.type));
    status = (await runJson(page, id)).status;
    const after = await entry.getAttribute("data-seq");
    const latest = events.at(-1)!;
    expect(before).toBe(after);
    expect(Number(after)).toBe(latest.seq);
    expect(await entry.textContent()).toBe(describeEvent(latest, english));
  }).toPass({ timeout: 30_000, intervals: [100] });
  return status;
}

/**
 * One round card per stored round, and the coverage numbers (directives and rounds) the API's. A
 * finished run shows them in its Supervision tab (drawn once first shown): opened for the check, and
 * the Activity tab chosen again after it.
 */
async function expectRoundsAndCoverage(page: Page, id: string): Promise<void> {
  const supervisionTab = page.getByRole("tab", { name: "Supervision" });
  let opened = false;
  await expect(async () => {
    if (
      (await supervisionTab.count()) > 0 &&
      (await supervisionTab.getAttribute("aria-selected")) !== "true"
    ) {
      await supervisionTab.click();
      opened = true;
    }
    const run = await runJson(page, id);
    await expect(page.getByTestId("round-card")).toHaveCount(run.supervisionHistory.length, { timeout: 100 });
    const api = (run.coverage?.directives ?? []).map((d) => [d.directiveId, String(d.sourceCount)]);
    const rows = page.getByTestId("coverage-value");
    const shown = await rows.evaluateAll((els) =>
      els.map((e) => [e.getAttribute("data-directive-id"), e.getAttribute("data-value")]),
    );
    expect(shown).toEqual(api);
    const rounds = run.supervisionHistory
      .filter((r) => typeof r.coverageAfter?.heuristic?.confidence === "number")
      .map((r) => [String(r.round), String(r.coverageAfter!.heuristic!.confidence)]);
    const shownRounds = await page
      .getByTestId("round-coverage-value")
      .evaluateAll((els) => els.map((e) => [e.getAttribute("data-round"), e.getAttribute("data-value")]));
    expect(shownRounds).toEqual(rounds);
  }).toPass({ timeout: 20_000, intervals: [250] });
  if (opened) await page.getByRole("tab", { name: "Activity" }).click();
}

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

test.beforeEach(async ({ request }) => {
  await waitForIdle(request);
});

test("the run page follows a run live and puts the report first when it is done", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  // Slow steps, so the page is seen while the researchers work.
  await scriptLlm(researchScript({ webUrl: webUrl(), stepDelayMs: 1500 }));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  const question = page.getByLabel("Research question");
  await question.fill(QUESTION);
  await question.press("Enter");
  // Enter submits once the home form supports it; until then the button does.
  const started = await page
    .waitForURL(/\/runs\/[0-9a-f-]{36}$/, { timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  if (!started) {
    await question.fill(QUESTION);
    await page.getByRole("button", { name: "Start research" }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  }
  const id = page.url().split("/").at(-1)!;

  // While it runs: one H1 (the question), the tab titled by it, status and the progress card in words;
  // the directives and the activity under "How this was researched", opened here.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(QUESTION);
  await expect(page).toHaveTitle(
    /^Heat pump or gas boiler for a home in a cold climate: .{5,20}… — Deep Research$/,
  );
  await page.getByTestId("research-details").locator(":scope > summary").click();
  await expect(page.getByTestId("directive-card").first()).toBeVisible({ timeout: 30_000 });
  expect(await expectLatestEntry(page, id)).toBe("running");
  await expect(page.getByTestId("run-status")).toHaveText("Researching");
  await expect(page.getByTestId("progress-now")).not.toHaveText("");
  // The elapsed time ticks while the run goes.
  const elapsed = page.getByTestId("elapsed");
  const firstElapsed = await elapsed.textContent();
  await expect(elapsed).not.toHaveText(firstElapsed!, { timeout: 3_000 });
  await expect(elapsed).toHaveText(/^Working for (\d+ s|\d+ min \d+ s)$/);
  await expectRoundsAndCoverage(page, id);
  await shoot(page, testInfo, "running-desktop");
  await expectAccessible(page, "the running run page");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await shoot(page, testInfo, "running-phone");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Done: the report first, then the tabs; nothing reads raw or stale.
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "completed", {
    timeout: 90_000,
  });
  await expect(page.getByTestId("run-status")).toHaveText("Finished");
  const report = page.getByRole("region", { name: "Report", exact: true });
  await expect(report.getByRole("heading", { name: "Sources" })).toBeVisible();
  const tablist = page.getByRole("tablist", { name: "About this run" });
  expect(
    await report.evaluate(
      (r, tabs) => Boolean(r.compareDocumentPosition(tabs!) & Node.DOCUMENT_POSITION_FOLLOWING),
      await tablist.elementHandle(),
    ),
  ).toBe(true);
  await expectLatestEntry(page, id);
  await expect(page.getByTestId("activity-latest")).toHaveText(
    /^Completed with \d+ sources? and \d+ citations?/,
  );
  await expectRoundsAndCoverage(page, id);
  for (const text of await page.getByTestId("directive-status").allTextContents()) {
    expect(text).not.toMatch(/Researching|Waiting/);
  }
  // A directive's findings open as rendered Markdown (its renderer is loaded on demand).
  const findings = page.getByTestId("directive-card").first().locator("details");
  await findings.getByText("Findings", { exact: true }).first().click();
  await expect(findings.getByRole("heading", { name: "Queries and tool calls made" })).toBeVisible();
  // No engine words on the page: event names, snake_case statuses.
  const shown = await page.getByRole("main").textContent();
  expect(shown).not.toMatch(
    /\b(phase|run|supervision|researcher|directive)\.[a-z]|awaiting_|first_round|_sources\b/,
  );

  // The tabs work from the keyboard.
  const activityTab = page.getByRole("tab", { name: "Activity" });
  await expect(activityTab).toHaveAttribute("aria-selected", "true");
  await activityTab.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: /^Sources/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: /^Sources/ })).toBeFocused();
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "Usage" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("usage-summary")).toContainText(/model calls read [\d,]+ tokens/);
  await page.getByRole("tab", { name: "Supervision" }).click();
  await expect(page.getByTestId("round-card").first()).toBeVisible();
  // The chart library loads when a chart comes near the screen, not with the page.
  await page.getByTestId("coverage-chart").scrollIntoViewIfNeeded();
  await expect(page.getByTestId("coverage-chart").locator("svg").first()).toBeVisible();
  await shoot(page, testInfo, "finished-desktop");
  // A link to a tab (the knowledge page links to "#sources") opens that tab.
  await page.evaluate(() => {
    window.location.hash = "sources";
  });
  await expect(page.getByRole("tab", { name: /^Sources/ })).toHaveAttribute("aria-selected", "true");
  await expectAccessible(page, "the finished run page");

  // On a phone the report starts on the first screen and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(report).toBeVisible();
  expect((await report.boundingBox())!.y).toBeLessThan(844);
  await expectNoSidewaysScroll(page);
  await shoot(page, testInfo, "finished-phone");

  // The chart library is not part of the page (a fresh browser cache sees every script it loads):
  // it comes when a chart comes on screen.
  const fresh = await browser.newContext({ storageState: await page.context().storageState() });
  try {
    const reader = await fresh.newPage();
    const scripts: Promise<string>[] = [];
    reader.on("response", (r) => {
      if (r.request().resourceType() === "script") scripts.push(r.text().catch(() => ""));
    });
    const chartCode = async () => (await Promise.all(scripts)).some((body) => body.includes("recharts-"));
    await reader.goto(page.url().replace(/#.*$/, ""));
    await expect(reader.getByRole("region", { name: "Report", exact: true })).toBeVisible();
    await reader.waitForLoadState("networkidle");
    expect(scripts.length).toBeGreaterThan(3);
    expect(await chartCode()).toBe(false);
    await reader.getByRole("tab", { name: "Supervision" }).click();
    await reader.getByTestId("coverage-chart").scrollIntoViewIfNeeded();
    await expect(reader.getByTestId("coverage-chart").locator("svg").first()).toBeVisible();
    expect(await chartCode()).toBe(true);
  } finally {
    await fresh.close();
  }
});

test("after a cancel the page shows what happened: no directive still researching, the sources kept", async ({
  page,
  request,
}) => {
  await scriptLlm(researchScript({ webUrl: webUrl(), researcherA: [{ kind: "hang" }] }));
  const { id } = await (
    await request.post("/api/runs", { data: { question: "Heat pump or gas boiler?" } })
  ).json();
  await page.goto(`/runs/${id}`);
  await expect
    .poll(async () => await isHanging("researcher-a"), {
      timeout: 30_000,
    })
    .toBe(true);
  await page.getByTestId("research-details").locator(":scope > summary").click();
  await expect(page.getByTestId("directive-status").filter({ hasText: "Researching" }).first()).toBeVisible();
  // Cancelled through the API: the cancel controls are another part of the page (and may ask to confirm).
  expect((await request.post(`/api/runs/${id}/cancel`)).status()).toBe(202);
  const run = await waitForStatus(request, id, ["cancelled"], 10_000);
  await expect(page.getByTestId("run-status")).toHaveText("Cancelled");
  await expect(
    page.getByTestId("directive-status").filter({ hasText: "Stopped when the run was cancelled" }),
  ).not.toHaveCount(0);
  for (const text of await page.getByTestId("directive-status").allTextContents()) {
    expect(text).not.toMatch(/Researching|^Waiting$/);
  }
  // What was read before the cancel is still there to see.
  const sources = (run.sources as unknown[]).length;
  await page.getByRole("tab", { name: `Sources (${sources})` }).click();
  if (sources)
    await expect(page.getByRole("region", { name: "Sources" }).getByRole("link")).toHaveCount(sources);
  await expect(page.getByTestId("activity-latest")).toHaveText(/^Cancelled/);
});
