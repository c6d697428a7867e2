/**
 * The run page's forms, through the built app with the scripted model: plan review (reword,
 * re-prioritise, remove, add), steering with its confirmation, the clarifying question answered
 * and skipped, cancel behind a confirmation, and the same forms with JavaScript off.
 */
import { expect, type Page, test } from "@playwright/test";
import type { ScriptRule } from "../test/support/llm-server.ts";
import {
  isHanging,
  llmRequests,
  readEventStream,
  scriptLlm,
  waitForIdle,
  waitForStatus,
  webUrl,
} from "./support/helpers.ts";
import { clarificationRule, researchScript, TOPIC_A, TOPIC_B } from "./support/research-script.ts";

const TOPIC_B_EDITED = "Annual running costs of a gas boiler for a semi-detached house in the UK";
const TOPIC_ADDED = "Noise levels of outdoor heat pump units in dense residential streets";
const TOPIC_STEERED = "Grid electricity tariffs designed for heat pump owners";

/** A researcher for an extra topic: one search, one page read, done (matched by the topic's words). */
function extraResearcher(name: string, words: string, delayMs = 0): ScriptRule {
  const step = (n: string, args: unknown) => ({
    kind: "tool_calls" as const,
    calls: [{ name: n, arguments: args }],
    ...(delayMs ? { delayMs } : {}),
  });
  return {
    name,
    match: { tool: "web_search", any: words },
    replies: [
      step("web_search", { query: words }),
      step("think", { reflection: "The installation guide covers this." }),
      step("extract_content", { url: `${webUrl()}/pages/heat-pump-installation-guide.html` }),
      step("think", { reflection: "That is enough." }),
      step("research_complete", { summary: `Covered ${words}.` }),
    ],
  };
}

const runId = (page: Page) => page.url().split("/").at(-1)!;

test.beforeEach(async ({ request }) => {
  await waitForIdle(request);
});

test("plan review rewords, re-prioritises, removes and adds; steering is confirmed and researched", async ({
  page,
  request,
}) => {
  const rules = researchScript({ webUrl: webUrl(), omitA: true, stepDelayMs: 1200 });
  rules.unshift(
    extraResearcher("researcher-added", "Noise levels of outdoor heat pump units"),
    extraResearcher("researcher-steered", "Grid electricity tariffs", 200),
  );
  await scriptLlm(rules);
  const { id } = await (
    await request.post("/api/runs", {
      data: {
        question: "Heat pumps against gas boilers?",
        settings: { planReview: true, maxSupervisionRounds: 1 },
      },
    })
  ).json();
  await waitForStatus(request, id, ["awaiting_plan_review"], 30_000);
  await page.goto(`/runs/${id}`);

  const review = page.getByRole("region", { name: "Plan review" });
  await expect(review).toHaveCount(1);
  await expect(page.getByRole("heading", { name: "Plan review" })).toHaveCount(1);
  await review.getByRole("checkbox", { name: `Remove: ${TOPIC_A}` }).check();
  // Topics are numbered in the order the API lists the proposed directives.
  const proposed = (await (await request.get(`/api/runs/${id}`)).json()).directives as { topic: string }[];
  const nB = proposed.findIndex((d) => d.topic === TOPIC_B) + 1;
  await expect(review.getByLabel(`Topic ${nB}`, { exact: true })).toHaveValue(TOPIC_B);
  await review.getByLabel(`Topic ${nB}`, { exact: true }).fill(TOPIC_B_EDITED);
  await review.getByLabel(`Priority of topic ${nB}`).selectOption({ label: "Critical" });
  await review.getByLabel("New topic", { exact: true }).fill(TOPIC_ADDED);
  await review.getByLabel("Priority of the new topic").selectOption({ label: "High" });
  await review.getByRole("button", { name: "Approve plan and start research" }).click();
  await expect(review).toHaveCount(0, { timeout: 15_000 });

  // Steering while the researchers work: confirmed, then listed on the page and in the API.
  await page.getByLabel("Also research").fill(TOPIC_STEERED);
  await page.getByLabel("Priority", { exact: true }).selectOption({ label: "High" });
  await page.getByRole("button", { name: "Add directive" }).click();
  // The confirmation says what happens: it is queued for the next free researcher, not "next round".
  await expect(page.getByTestId("steer-confirmation")).toContainText(`Added “${TOPIC_STEERED}”.`);
  await expect(page.getByTestId("steer-confirmation")).toContainText(
    /as soon as one is free|working on it now|researched/,
  );
  // A second time with the same topic is refused, and says why.
  await page.getByLabel("Also research").fill(TOPIC_STEERED);
  await page.getByRole("button", { name: "Add directive" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not possible now" })).toContainText("already has");

  const run = await waitForStatus(request, id, ["completed", "failed"], 60_000);
  expect(run.status).toBe("completed");
  type D = { topic: string; status: string; priority: string; origin: string };
  const byTopic = new Map((run.directives as D[]).map((d) => [d.topic, d]));
  expect(byTopic.get(TOPIC_A)?.status).toBe("skipped");
  expect(byTopic.has(TOPIC_B)).toBe(false);
  expect(byTopic.get(TOPIC_B_EDITED)).toMatchObject({ status: "done", priority: "critical" });
  expect(byTopic.get(TOPIC_ADDED)).toMatchObject({ status: "done", priority: "high", origin: "user" });
  expect(byTopic.get(TOPIC_STEERED)).toMatchObject({ status: "done", priority: "high", origin: "user" });
  // Once the run ended the steering form is gone.
  await expect(page.getByLabel("Also research")).toHaveCount(0, { timeout: 15_000 });
});

test("the clarifying question is answered, or skipped, from its form", async ({ page, request }) => {
  const rules = researchScript({ webUrl: webUrl() });
  rules.unshift(clarificationRule);
  await scriptLlm(rules);
  const start = async () => {
    const { id } = await (
      await request.post("/api/runs", {
        data: { question: "Is a heat pump worth it?", settings: { clarification: true } },
      })
    ).json();
    await waitForStatus(request, id, ["awaiting_clarification"], 30_000);
    await page.goto(`/runs/${id}`);
    return id as string;
  };

  const answered = await start();
  await expect(page.getByRole("heading", { name: "One question before the research starts" })).toBeVisible();
  const answer = page.getByLabel("Which climate should the comparison assume: mild or cold winters?");
  await page.getByRole("button", { name: "Answer and continue" }).click();
  await expect(page.getByText("Write an answer, or choose Skip.")).toBeVisible();
  await expect(answer).toHaveAttribute("aria-invalid", "true");
  await answer.fill("Cold winters, down to -20 °C.");
  await page.getByRole("button", { name: "Answer and continue" }).click();
  await waitForStatus(request, answered, ["completed"], 60_000);

  await waitForIdle(request);
  const skipped = await start();
  await page.getByRole("button", { name: "Skip: no preference" }).click();
  const run = await waitForStatus(request, skipped, ["completed"], 60_000);
  expect(run.status).toBe("completed");
  const types = (await readEventStream(skipped)).map(([, t]) => t);
  expect(types).toContain("clarification.answered");
  // The brief of the skipped run was written knowing the person left the choice open.
  const briefs = (await llmRequests()).filter((r) => r.rule === "brief");
  expect(JSON.stringify(briefs.at(-1)?.body)).toContain("No preference");
  expect(JSON.stringify(briefs.at(0)?.body)).toContain("Cold winters, down to -20 °C.");
});

test("cancel asks first, then ends the run with no directive left running; run again and edit question", async ({
  page,
  request,
}) => {
  await scriptLlm(researchScript({ webUrl: webUrl(), researcherA: [{ kind: "hang" }] }));
  const question = "Heat pump or gas boiler, honestly?";
  // Started as the Quick preset, with plan review off and a token limit: "Edit question" keeps them.
  const quick = {
    maxSupervisionRounds: 1,
    maxConcurrentResearchers: 3,
    researcherToolBudget: 6,
    relevantSourcesToStop: 2,
    budget: { maxCostUsd: 1, maxTokens: 123000 },
  };
  const { id } = await (await request.post("/api/runs", { data: { question, settings: quick } })).json();
  await page.goto(`/runs/${id}`);
  await expect.poll(async () => (await (await request.get(`/api/runs/${id}`)).json()).status).toBe("running");

  await page.getByText("Cancel…").click();
  await expect(page.getByText("Stop the research now?")).toBeVisible();
  await page.getByRole("button", { name: "Keep going" }).click();
  await expect(page.getByRole("button", { name: "Cancel the run" })).toBeHidden();
  expect((await (await request.get(`/api/runs/${id}`)).json()).status).toBe("running");

  await page.getByText("Cancel…").click();
  await page.getByRole("button", { name: "Cancel the run" }).click();
  await expect(page.getByTestId("run-status")).toHaveText(/cancelled/i, { timeout: 10_000 });
  const run = await waitForStatus(request, id, ["cancelled"], 5_000);
  expect((run.directives as { status: string }[]).map((d) => d.status)).not.toContain("running");
  await expect(page.getByText("Cancel…")).toHaveCount(0);

  await expect(page.getByRole("link", { name: "Edit question" })).toHaveAttribute("href", `/?from=${id}`);
  // The home page opens with the question in its form, ready to be edited, and the run's preset and options.
  await page.getByRole("link", { name: "Edit question" }).click();
  await expect(page.getByLabel("Research question")).toHaveValue(question);
  await expect(page.getByRole("radio", { name: /^Quick/ })).toBeChecked();
  await page.getByText("Options", { exact: true }).click();
  await expect(page.getByLabel("Supervision rounds")).toHaveValue("1");
  await expect(page.getByLabel("Researchers at once")).toHaveValue("3");
  await expect(page.getByLabel("Token limit")).toHaveValue("123000");
  await page.goBack();
  // The first run used up directive A's scripted replies: script them again, so the new run is
  // held mid-research (not ended by an unscripted call) when the test cancels it.
  await scriptLlm(researchScript({ webUrl: webUrl(), researcherA: [{ kind: "hang" }] }));
  await page.getByRole("button", { name: "Run again" }).click();
  await page.waitForURL((url) => /\/runs\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(id));
  const again = await (await request.get(`/api/runs/${runId(page)}`)).json();
  expect(again.question).toBe(question);
  await expect
    .poll(async () => (await (await request.get(`/api/runs/${again.id}`)).json()).status)
    .toBe("running");
  expect((await request.post(`/api/runs/${again.id}/cancel`)).status()).toBe(202);
  await waitForStatus(request, again.id, ["cancelled"], 10_000);
});

/** What the knowledge model of the partial run answers: the report's own scaffolding among two findings. */
const SOURCED = "Air-source heat pumps keep a seasonal COP between 2.5 and 3 in cold-climate field trials.";
const UNSOURCED = "Heat pump running costs depend more on the electricity tariff than on the unit.";
const knowledgeItems = [
  ...[
    "Efficiency in the cold",
    "Running costs",
    "Partial report.",
    "Research was stopped early at the owner's request",
  ],
  SOURCED,
  UNSOURCED,
].map((content) => ({
  category: "finding" as const,
  content,
  sources: content === SOURCED ? [1] : [],
  confidence: 0.8,
  needs_review: false,
}));

test('"stop and write the report now" yields a partial report; steering is refused from then on', async ({
  page,
  request,
}) => {
  await scriptLlm(researchScript({ webUrl: webUrl(), researcherA: [{ kind: "hang" }], knowledgeItems }));
  const { id } = await (
    await request.post("/api/runs", { data: { question: "Heat pump or boiler, quickly?" } })
  ).json();
  // A hangs mid-research while B finishes: the report then has something to rest on.
  await expect
    .poll(
      async () => {
        const hanging = await isHanging("researcher-a");
        const run = await (await request.get(`/api/runs/${id}`)).json();
        const b = run.directives.find((d: { topic: string }) => d.topic === TOPIC_B);
        return hanging && b?.status === "done";
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await page.goto(`/runs/${id}`);
  await page.getByRole("button", { name: "Stop and write the report now" }).click();
  // The run writes its report within moments, so the confirmation may already have given way to it.
  await expect(
    page
      .getByText("Research stopped: the report is being written")
      .or(page.getByText("Writing the report"))
      .or(page.getByTestId("run-status").filter({ hasText: /completed|finished/i }))
      .first(),
  ).toBeVisible();
  const late = await request.post(`/api/runs/${id}/directives`, { data: { topic: TOPIC_STEERED } });
  expect(late.status()).toBe(409);

  const run = await waitForStatus(request, id, ["completed", "failed"], 30_000);
  expect(run).toMatchObject({ status: "completed", reportPartial: true });
  expect(String(run.report)).toMatch(/^> \*\*Partial report\.\*\* Research was stopped early/);
  // The researcher that was mid-way is skipped, not left running; the other's findings carry the report.
  const statuses = new Map(
    (run.directives as { topic: string; status: string }[]).map((d) => [d.topic, d.status]),
  );
  expect(statuses.get(TOPIC_A)).toBe("skipped");
  expect(statuses.get(TOPIC_B)).toBe("done");
  // Knowledge of the run: none of the report's headings or notices, confidences that follow evidence.
  const comparable = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const scaffolding = String(run.report)
    .split("\n")
    .filter((line) => /^(#{1,6} |> \*\*)/.test(line))
    .map(comparable);
  expect(scaffolding.length).toBeGreaterThanOrEqual(3);
  const { items } = await (await request.get("/api/knowledge?status=provisional")).json();
  const ofRun = (items as { runId: string; content: string; confidence: number }[]).filter(
    (k) => k.runId === id,
  );
  expect(ofRun.map((k) => k.content).sort()).toEqual([SOURCED, UNSOURCED].sort());
  for (const k of ofRun) expect(scaffolding.some((s) => s.includes(comparable(k.content)))).toBe(false);
  const confidence = new Map(ofRun.map((k) => [k.content, k.confidence]));
  expect(confidence.get(SOURCED)).toBeGreaterThan(confidence.get(UNSOURCED) ?? 1);
  await expect(page.getByTestId("run-status")).toHaveText(/completed|finished/i, { timeout: 15_000 });
  await expect(page.getByLabel("Also research")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Stop and write the report now" })).toHaveCount(0);
  await expect(page.getByText("Cancel…")).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the steer form and cancel still work", async ({ page, request }) => {
    await scriptLlm(researchScript({ webUrl: webUrl(), researcherA: [{ kind: "hang" }] }));
    const { id } = await (
      await request.post("/api/runs", { data: { question: "Heat pump or boiler?" } })
    ).json();
    await expect
      .poll(async () => (await (await request.get(`/api/runs/${id}`)).json()).status)
      .toBe("running");
    await page.goto(`/runs/${id}`);

    await page.getByLabel("Also research").fill(TOPIC_STEERED);
    await page.getByLabel("Priority", { exact: true }).selectOption("low");
    await page.getByRole("button", { name: "Add directive" }).click();
    await expect(page.getByTestId("steer-confirmation")).toContainText(`Added “${TOPIC_STEERED}”`);
    const steered = await (await request.get(`/api/runs/${id}`)).json();
    expect(steered.directives).toContainEqual(
      expect.objectContaining({ topic: TOPIC_STEERED, priority: "low", origin: "user" }),
    );

    await page.getByText("Cancel…").click();
    await page.getByRole("button", { name: "Cancel the run" }).click();
    await waitForStatus(request, id, ["cancelled"], 5_000);
    await page.goto(`/runs/${id}`);
    await expect(page.getByTestId("run-status")).toHaveText(/cancelled/i);
  });
});
