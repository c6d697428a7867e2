/**
 * The running run page as a person reads it: one progress card in plain words (stepper, a sentence
 * per researcher, counts, a clock that stops while the run waits for the person, a time-left range
 * from the end of round 1) with everything else under "How this was researched"; a view kept from
 * the events (the page reads the run in full at most once at load; not after a forced reconnect,
 * whose replay brings what it missed; not per burst of events, a round's end or the run's end);
 * short directive titles; and the page at phone width in both schemes.
 */
import { expect, type Page, type Request, test } from "@playwright/test";
import type { ScriptRule } from "../test/support/llm-server.ts";
import { roleMatch } from "../test/support/script-roles.ts";
import { expectAccessible } from "./support/axe.ts";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { relayEventStreams } from "./support/stream-cut.ts";
import { expectVerdictSummary, MAX_CITATION_CHECKS, verdictRules } from "./support/verdict-script.ts";

const QUESTION = "Heat pump or gas boiler for a home in a cold climate: what should I know?";
const TOPIC_C =
  "Noise of outdoor heat pump units in dense terraced streets, in decibels measured at five metres, with local planning limits";

/**
 * Round 1 ends with a follow-up (round 2 of at most 3) researched slowly; the report's citations
 * are checked slowly into known numbers (verdict-script.ts).
 */
function multiRoundScript(): ScriptRule[] {
  const step = (name: string, args: unknown) => ({
    kind: "tool_calls" as const,
    calls: [{ name, arguments: args }],
    delayMs: 4000,
  });
  const rules = researchScript({ webUrl: webUrl(), stepDelayMs: 800 });
  rules.unshift(
    {
      name: "assessment-continue",
      match: roleMatch.assessment,
      replies: [
        {
          kind: "json",
          value: {
            overall_coverage: 0.5,
            directive_assessments: [],
            follow_up_queries: [
              {
                title: "## Outdoor unit **noise** in dense streets",
                topic: TOPIC_C,
                perspective: "neighbours",
                evidence_needed: "measured sound levels",
                priority: "high",
                gap: "noise is not covered",
              },
            ],
            should_continue: true,
            rationale: "Noise is not covered yet.",
          },
        },
      ],
    },
    {
      name: "researcher-c",
      match: { tool: "web_search", any: "Noise of outdoor heat pump units" },
      replies: [
        step("web_search", { query: "heat pump outdoor unit noise decibels" }),
        step("think", { reflection: "The installation guide gives sound levels." }),
        step("extract_content", { url: `${webUrl()}/pages/heat-pump-installation-guide.html` }),
        step("think", { reflection: "That is enough." }),
        step("research_complete", { summary: "Covered outdoor unit noise." }),
      ],
    },
    // The report's citations are checked slowly (4 s) into 5 supported, 2 partly, 1 unsupported, 3 unchecked.
    ...verdictRules(4000),
  );
  return rules;
}

/** The page's own reads of the whole run: GET /api/runs/:id and React Server Component requests. */
function countRunReads(page: Page, id: string): () => number {
  let reads = 0;
  page.on("request", (r: Request) => {
    const url = new URL(r.url());
    const rsc = r.headers().rsc === "1" || url.searchParams.has("_rsc");
    if ((r.method() === "GET" && url.pathname === `/api/runs/${id}`) || rsc) reads++;
  });
  return () => reads;
}

/** The text a person sees outside "How this was researched". */
async function textOutsideDetails(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const d of copy.querySelectorAll('[data-testid="research-details"]')) d.remove();
    // Text node by text node, so the words of two elements never run together ("127.0.0.1" + "3").
    const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
    const parts: string[] = [];
    while (walker.nextNode()) parts.push(walker.currentNode.nodeValue ?? "");
    return parts.join("\n");
  });
}

async function expectPlainWords(page: Page, where: string): Promise<void> {
  const text = await textOutsideDetails(page);
  expect(text, where).not.toContain("http://");
  expect(text, where).not.toMatch(/\b(researcher|supervision|directive|phase|run)\.[a-z_]+/);
  expect(text, where).not.toMatch(/Thought:|reflection:/i);
  expect(text, where).not.toMatch(/\d\.\d{2,}/);
}

async function shootBoth(page: Page, name: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const path = test.info().outputPath(`${name}-${scheme}.png`);
    await page.screenshot({ path, fullPage: true });
    await test.info().attach(`${name}-${scheme}`, { path, contentType: "image/png" });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test("the running run page: a progress card in plain words, kept from the events", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await waitForIdle(request);
  await scriptLlm(multiRoundScript());
  await page.setViewportSize({ width: 1280, height: 800 });
  const { id } = await (
    await page.request.post("/api/runs", {
      data: {
        question: QUESTION,
        settings: { planReview: true, maxSupervisionRounds: 2, maxCitationChecks: MAX_CITATION_CHECKS },
      },
    })
  ).json();
  await waitForStatus(request, id, ["awaiting_plan_review"], 30_000);
  const reads = countRunReads(page, id);
  // The page's event stream goes through a relay the test can cut (support/stream-cut.ts).
  const stream = await relayEventStreams(page, id);
  await page.goto(`/runs/${id}`);
  const card = page.getByTestId("progress-card");

  // Plan review: the review takes the card's place under the stepper, and the clock stands still.
  await expect(card).toHaveAttribute("data-step", "plan");
  await expect(card.getByRole("heading", { name: "Plan review" })).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText("Plan ready for review");
  const elapsed = page.getByTestId("elapsed");
  await expect(elapsed).toHaveAttribute("data-paused", "true");
  // The clock knows when the wait began from the run's history, which the stream (through the
  // relay) brings a moment after the page: read it once that has arrived.
  await expect(page.getByTestId("activity-latest").first()).toBeAttached();
  const stopped = await elapsed.textContent();
  await page.waitForTimeout(2_100); // the clock would have ticked twice
  await expect(elapsed).toHaveText(stopped!);
  await expect(page.getByTestId("time-left")).toHaveCount(0);
  await expectPlainWords(page, "plan review");
  expect(reads(), "reads at load").toBeLessThanOrEqual(1);

  // Research: one sentence per researcher with the site's name, the round of at most 3.
  await page.getByRole("button", { name: "Approve plan and start research" }).click();
  await expect(card).toHaveAttribute("data-step", "research", { timeout: 15_000 });
  await expect(card.getByTestId("progress-now").locator("li").first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("progress-round")).toHaveText(/round 1 of at most 3/);
  await expect(elapsed).not.toHaveAttribute("data-paused");
  const afterApproval = reads(); // the approval re-reads the run once

  // Round 2 of 3 (the follow-up): the time-left range appears once round 1 has ended.
  await expect(page.getByTestId("progress-round")).toHaveText(/round 2 of at most 3/, { timeout: 60_000 });
  await expect(page.getByTestId("time-left")).toHaveText(/^(About .+ left|Less than a minute left)$/);
  await expect(card.getByTestId("progress-now")).toContainText(/Outdoor unit noise/, { timeout: 15_000 });
  const beforeBurst = reads();
  // Directive titles: short, plain, the full topic on expand.
  const run = await (await request.get(`/api/runs/${id}`)).json();
  const titles = (run.directives as { title: string; topic: string }[]).map((d) => d.title);
  expect(titles).toContain("Cold-climate heat pump efficiency");
  expect(titles).toContain("Outdoor unit noise in dense streets");
  for (const t of titles) {
    expect(t.length).toBeLessThanOrEqual(80);
    expect(t).not.toMatch(/[*_#`<>[\]]/);
  }
  await page.getByTestId("research-details").locator(":scope > summary").click();
  const shownTitles = await page.getByTestId("directive-title").allTextContents();
  expect(shownTitles.sort()).toEqual([...titles].sort());
  await expectAccessible(page, "the running run page");
  await shootBoth(page, "running-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shootBoth(page, "running-phone");
  // The phone header is one row with a menu holding the links.
  await page.getByTestId("phone-menu").locator(":scope > summary").click();
  await expect(page.getByTestId("phone-menu").getByRole("link", { name: "Knowledge" })).toBeVisible();
  await page.getByTestId("phone-menu").locator(":scope > summary").click();

  // The burst of researcher events since it started (search → read) was applied without a read.
  await expect(card.getByTestId("progress-now")).toContainText("127.0.0.1", { timeout: 20_000 });
  expect(reads(), "reads per burst of events").toBe(beforeBurst);
  console.log(`run reads: load ${afterApproval}, by round 2 ${beforeBurst}`);
  await expectPlainWords(page, "round 2");

  // A forced reconnect: the stream is cut while researcher C works; C finishes while the page is
  // away; the browser reconnects with Last-Event-ID and the replay brings what it missed (C done,
  // with its findings), with no read of the run.
  const cDirective = (run.directives as { id: string; topic: string }[]).find((d) => d.topic === TOPIC_C)!;
  const cCard = page.locator(`[data-testid="directive-card"][data-directive-id="${cDirective.id}"]`);
  await expect(cCard.getByTestId("directive-status")).toHaveText(/Researching/);
  const beforeDrop = reads();
  stream.cut();
  await expect
    .poll(
      async () => {
        const now = await (await request.get(`/api/runs/${id}`)).json();
        return now.directives.find((d: { id: string }) => d.id === cDirective.id).status;
      },
      { timeout: 60_000 },
    )
    .toBe("done");
  // The browser saw its stream fail and is trying again (held by the relay); C's end, stored
  // meanwhile, is not on the page yet.
  await expect.poll(() => stream.connections.length, { timeout: 15_000 }).toBeGreaterThan(1);
  await expect(cCard.getByTestId("directive-status")).toHaveText(/Researching/);
  stream.restore();
  await expect(cCard.getByTestId("directive-status")).toHaveText("Done", { timeout: 15_000 });
  await expect(cCard.locator("summary", { hasText: "Findings" })).toBeVisible();
  // The browser reconnected by itself, from the last event it had.
  const reconnect = stream.connections.find((c) => c.lastEventId !== null);
  expect(reconnect, "a reconnect with Last-Event-ID").toBeTruthy();
  expect(Number(reconnect?.lastEventId)).toBeGreaterThan(0);
  expect(reads() - beforeDrop, "reads after the forced reconnect").toBe(0);
  console.log(`run reads around the forced reconnect: ${reads() - beforeDrop}`);

  // Writing, then checking citations (the verdicts take 4 s), then done.
  await expect(card).toHaveAttribute("data-step", "checking", { timeout: 60_000 });
  await expectPlainWords(page, "checking citations");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "completed", {
    timeout: 30_000,
  });
  // Round 2's end, the report and the run's end came with what the page shows: no read for them.
  expect(reads() - beforeDrop, "reads from the reconnect to the run's end").toBe(0);
  console.log(`run reads: ${reads()} in all (load ${afterApproval})`);
  await stream.close();

  // Finished: exactly the scripted verdicts, each weak count leading to its markers; first as the
  // events left the page, then as a fresh load shows them.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectVerdictSummary(page);
  await page.reload();
  await expectVerdictSummary(page);
});

test("no workspace page scrolls sideways on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [
    "/",
    "/knowledge",
    "/library",
    "/account",
    "/admin",
    "/admin/settings",
    "/admin/system",
  ]) {
    await page.goto(path);
    await page.locator("main").first().waitFor();
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(fits, path).toBe(true);
  }
});
