/**
 * Whole research runs through the built app: the browser starts a run and watches it live, the
 * scripted model answers every role, the local web fixture is searched and read, and the stored
 * report's every citation resolves to a fetched source.
 */
import { expect, test } from "@playwright/test";
import { checkRunContract } from "./support/contract.ts";
import {
  isHanging,
  llmRequests,
  readEventStream,
  scriptLlm,
  waitForIdle,
  waitForStatus,
  webUrl,
} from "./support/helpers.ts";
import {
  clarificationRule,
  refusingStructuredOutputs,
  researchScript,
  STRUCTURED_REFUSAL,
  TOPIC_A,
  TOPIC_B,
} from "./support/research-script.ts";
import { signedOut } from "./support/session.ts";

test.beforeEach(async ({ request }) => {
  await waitForIdle(request);
});

test("a question typed in the browser becomes a cited report, streamed live", async ({ page, request }) => {
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  await page.goto("/");
  await page
    .getByLabel("Research question")
    .fill("Heat pump or gas boiler for a typical home in a cold climate?");
  await page.getByRole("button", { name: "Start research" }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;

  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "completed", {
    timeout: 60_000,
  });
  const report = page.getByRole("region", { name: "Report", exact: true });
  await expect(report.getByRole("heading", { name: "Efficiency in the cold" })).toBeVisible();
  await expect(report.getByRole("heading", { name: "Sources" })).toBeVisible();
  await expect(page.getByTestId("timeline")).toContainText("Completed with");
  await expect(page.getByTestId("citation-check")).toContainText(
    "1 citation to a source that was never read was removed",
  );
  // Once the run has ended, supervision is one of the tabs after the report.
  await page.getByRole("tab", { name: "Supervision" }).click();
  const supervision = page.getByRole("region", { name: "Supervision" });
  await expect(supervision.getByRole("table").first()).toContainText(
    "Seasonal efficiency of air-source heat pumps",
  );
  await expect(supervision).toContainText("Round 1 · Coverage check");
  // Markdown is rendered without raw HTML: the model's <img onerror> and <script> never reach the DOM.
  await expect(report.locator("img, script")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

  const run = await (await request.get(`/api/runs/${id}`)).json();
  expect(run.status).toBe("completed");
  expect(run.brief).toMatch(/^I want to understand/);
  expect(run.directives.map((d: { topic: string }) => d.topic)).toHaveLength(2);
  // Each scripted researcher read one page and finished itself: no stop rule fired.
  expect(run.directives.map((d: { stopReason: string | null }) => d.stopReason)).toEqual([
    "complete",
    "complete",
  ]);
  expect(run.supervisionHistory.length).toBeGreaterThanOrEqual(2);
  const fetched = [
    `${webUrl()}/pages/cold-climate-heat-pump-performance.html`,
    `${webUrl()}/pages/running-costs-heat-pump-vs-gas-boiler.html`,
  ];
  for (const url of fetched) expect(run.sources.map((s: { url: string }) => s.url)).toContain(url);

  const md = await request.get(`/api/runs/${id}/report.md`);
  expect(md.headers()["content-type"]).toMatch(/text\/markdown/);
  const text = await md.text();
  const [body, sourcesSection] = text.split(/^## Sources$/m);
  expect(sourcesSection).toBeDefined();
  // The model's bibliography, its citation of an unknown source and its link to an unread page are gone.
  expect(text).not.toMatch(/## References|Something the model invented|\[9\]|unknown\.example/);
  expect(body).toContain("a blog we never read");
  const cited = [...new Set([...body.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))];
  // Each entry is `[N] [Title](URL)`, marked when the page itself was read in full (these were fetched).
  const listed = [...sourcesSection.matchAll(/^\[(\d+)\] \[[^\]]+\]\((\S+)\) \*\(read in full\)\*$/gm)].map(
    (m) => ({
      n: Number(m[1]),
      url: m[2],
    }),
  );
  expect(cited.sort()).toEqual(listed.map((l) => l.n).sort());
  expect(listed.length).toBeGreaterThan(0);
  for (const l of listed) expect(fetched).toContain(l.url);

  // Every citation has a verdict with its reason; the source endpoint shows the passage it rests on.
  type CitationJson = { number: number; sourceId: string; support: string; reason: string | null };
  const citations: CitationJson[] = run.citations;
  expect(citations.length).toBe(listed.length);
  for (const c of citations) {
    expect(["supported", "partially_supported", "unsupported"]).toContain(c.support);
    expect(c.reason).toMatch(/^(lexical|model): /);
  }
  const first = citations[0];
  const source = await (await request.get(`/api/runs/${id}/sources/${first.sourceId}`)).json();
  expect(fetched).toContain(source.url);
  expect(source.readInFull).toBe(true);
  expect(source.citations).toEqual([
    expect.objectContaining({ number: first.number, support: first.support, reason: first.reason }),
  ]);
  expect(source.citations[0].passage).toMatch(/heat pump/i);

  const events = await readEventStream(id);
  expect(events.at(-1)?.[1]).toBe("run.completed");
  expect(events.map(([seq]) => seq)).toEqual(events.map((_, i) => i + 1));
  for (const t of [
    "brief.created",
    "supervision.first_round_decomposition",
    "researcher.think",
    "source.added",
    "report.completed",
  ]) {
    expect(events.map(([, type]) => type)).toContain(t);
  }
  const knowledge = await (await request.get("/api/knowledge?status=provisional")).json();
  expect(knowledge.items.map((k: { content: string }) => k.content)).toContain(
    "Cold-climate air-source heat pumps keep a COP above 2 well below freezing.",
  );
});

test("a provider that refuses structured outputs: the run completes and says which steps fell back, and why", async ({
  page,
  request,
}) => {
  await scriptLlm([...refusingStructuredOutputs(webUrl()), ...researchScript({ webUrl: webUrl() })]);
  const { id } = await (
    await request.post("/api/runs", {
      data: {
        question: "Heat pump or gas boiler when winters are cold?",
        settings: { maxSupervisionRounds: 1, heuristicFollowUps: 0 },
      },
    })
  ).json();
  const run = await waitForStatus(request, id, ["completed", "failed"]);
  expect(run.status).toBe("completed");

  type DegradationJson = { step: string; round: number | null; model: string; error: string; notice: string };
  const degradations = run.degradations as DegradationJson[];
  expect(degradations.map((d) => [d.step, d.round])).toEqual([
    ["planner", null],
    ["coverage_assessment", 1],
    ["citation_check", null],
    ["knowledge", null],
  ]);
  const said = `openai-compatible:scripted-model refused the request (HTTP 400) — ${STRUCTURED_REFUSAL.message}`;
  for (const d of degradations) {
    expect(d).toMatchObject({ model: "openai-compatible:scripted-model", error: STRUCTURED_REFUSAL.message });
    expect(d.notice).toContain(said);
  }
  // What each fallback did is in the run too: one directive, unchecked citations.
  expect(run.directives).toHaveLength(1);
  const unchecked = (run.citations as { support: string; reason: string }[]).filter(
    (c) => c.support === "unchecked",
  );
  expect(unchecked.length).toBeGreaterThan(0);
  for (const c of unchecked) expect(c.reason).toContain(STRUCTURED_REFUSAL.message.slice(0, 40));
  const events = await readEventStream(id);
  expect(events.filter(([, type]) => type === "run.degraded")).toHaveLength(4);

  await page.goto(`/runs/${id}`);
  const notice = page.getByRole("region", { name: "Steps that fell back" });
  await expect(notice).toContainText("4 steps fell back:");
  await expect(notice).toContainText(`Citations were not checked: ${said}`);
  await expect(notice).toContainText(`The research plan fell back to a single directive: ${said}`);
  await expect(notice).toContainText(`Coverage after round 1 was judged by the heuristic: ${said}`);
  await expect(notice).toContainText(`No knowledge was extracted: ${said}`);
});

test("a report is shared by a revocable link that needs no login", async ({ browser, request }) => {
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const { id } = await (
    await request.post("/api/runs", { data: { question: "Heat pumps in the cold: worth it?" } })
  ).json();
  await waitForStatus(request, id, ["completed"]);
  // No body at all: a link without label or expiry.
  const created = await request.post(`/api/runs/${id}/shares`);
  expect(created.status()).toBe(201);
  const share = await created.json();
  expect(Object.keys(share).sort()).toEqual([
    "allowDownload",
    "createdAt",
    "expiresAt",
    "id",
    "includeThread",
    "label",
    "url",
  ]);
  expect(share).toMatchObject({ label: null, expiresAt: null, allowDownload: false, includeThread: false });
  expect(share.url).toMatch(/\/share\/[A-Za-z0-9_-]{40,}$/);
  const labelled = await request.post(`/api/runs/${id}/shares`, {
    data: { label: "for Ada", expiresInDays: 30 },
  });
  expect(labelled.status()).toBe(201);
  const days = (Date.parse((await labelled.json()).expiresAt) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThanOrEqual(30);
  expect((await request.post(`/api/runs/${id}/shares`, { data: { expiresInDays: 0 } })).status()).toBe(422);

  // The list never shows a link again: the server keeps only a hash of its token.
  const { shares } = await (await request.get(`/api/runs/${id}/shares`)).json();
  expect(shares.map((s: { label: string | null }) => s.label)).toEqual([null, "for Ada"]);
  for (const s of shares) {
    expect(Object.keys(s).sort()).toEqual([
      "allowDownload",
      "createdAt",
      "expiresAt",
      "id",
      "includeThread",
      "label",
      "revokedAt",
    ]);
  }

  // A reader without any account or session.
  const context = await browser.newContext({ storageState: signedOut });
  const page = await context.newPage();
  await page.goto(share.url);
  await expect(page).toHaveURL(share.url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Heat pumps in the cold: worth it?");
  await expect(page.getByRole("heading", { name: "Sources" })).toBeVisible();
  expect((await request.delete(`/api/shares/${share.id}`)).status()).toBe(204);
  const gone = await page.goto(share.url);
  expect(gone?.status()).toBe(404);
  expect((await page.goto(share.url.replace(/\/share\/.*$/, `/share/${"x".repeat(43)}`)))?.status()).toBe(
    404,
  );
  await context.close();
});

test("cancelling mid-research ends the run within 5 s and aborts the model call in flight", async ({
  request,
}) => {
  await scriptLlm(researchScript({ webUrl: webUrl(), researcherA: [{ kind: "hang" }] }));
  const { id } = await (
    await request.post("/api/runs", { data: { question: "Heat pump or gas boiler?" } })
  ).json();
  await expect
    .poll(async () => await isHanging("researcher-a"), {
      timeout: 30_000,
    })
    .toBe(true);
  const started = Date.now();
  const r = await request.post(`/api/runs/${id}/cancel`);
  expect(r.status()).toBe(202);
  const run = await waitForStatus(request, id, ["cancelled"], 5_000);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(run.status).toBe("cancelled");
  await expect
    .poll(async () => (await llmRequests()).some((q) => q.rule === "researcher-a" && q.aborted))
    .toBe(true);
  const events = await readEventStream(id);
  expect(events.at(-1)?.[1]).toBe("run.cancelled");
  const again = await request.post(`/api/runs/${id}/cancel`);
  expect(again.status()).toBe(409);
});

test("the HTTP contract holds through a full scripted run", async ({ request }) => {
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  await checkRunContract(request, "Heat pump or gas boiler?");
});

test("with plan review on, a person drops a proposed directive in the UI and only the rest is researched", async ({
  page,
  request,
}) => {
  await scriptLlm(researchScript({ webUrl: webUrl(), omitA: true }));
  await page.goto("/");
  await page
    .getByLabel("Research question")
    .fill("Heat pumps against gas boilers: what do they cost to run?");
  // Plan review sits under the form's Options disclosure.
  await page.locator("summary", { hasText: "Options" }).click();
  await page.getByLabel("Let me review the plan first").check();
  await page.getByRole("button", { name: "Start research" }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;
  const review = page.getByRole("region", { name: "Plan review" });
  await expect(review).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "awaiting_plan_review");
  await review.getByRole("checkbox", { name: `Remove: ${TOPIC_A}` }).check();
  await review.getByRole("button", { name: "Approve plan and start research" }).click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "completed", {
    timeout: 60_000,
  });

  const run = await (await request.get(`/api/runs/${id}`)).json();
  const status = Object.fromEntries(
    run.directives.map((d: { topic: string; status: string }) => [d.topic, d.status]),
  );
  expect(status[TOPIC_A]).toBe("skipped");
  expect(status[TOPIC_B]).toBe("done");
  const types = (await readEventStream(id)).map(([, t]) => t);
  expect(types.indexOf("plan.awaiting_review")).toBeLessThan(types.indexOf("plan.approved"));
  // Directive A was never researched: its researcher is unscripted and no request went unanswered.
  expect((await llmRequests()).filter((r) => r.rule === undefined)).toEqual([]);
});

test("a critical directive added by the user mid-run is researched in the next round", async ({
  request,
}) => {
  const TOPIC_C = "Noise levels of outdoor heat pump units in dense residential streets";
  const rules = researchScript({ webUrl: webUrl(), stepDelayMs: 300 });
  rules.unshift({
    name: "researcher-c",
    match: { tool: "web_search", any: "Noise levels of outdoor heat pump units" },
    replies: [
      {
        kind: "tool_calls",
        calls: [{ name: "web_search", arguments: { query: "heat pump installation noise" } }],
      },
      {
        kind: "tool_calls",
        calls: [{ name: "think", arguments: { reflection: "The guide covers siting." } }],
      },
      {
        kind: "tool_calls",
        calls: [
          {
            name: "extract_content",
            arguments: { url: `${webUrl()}/pages/heat-pump-installation-guide.html` },
          },
        ],
      },
      { kind: "tool_calls", calls: [{ name: "think", arguments: { reflection: "Enough on noise." } }] },
      {
        kind: "tool_calls",
        calls: [{ name: "research_complete", arguments: { summary: "Noise is manageable." } }],
      },
    ],
  });
  await scriptLlm(rules);
  const { id } = await (
    await request.post("/api/runs", {
      data: { question: "Heat pump or gas boiler?", settings: { maxSupervisionRounds: 1 } },
    })
  ).json();
  await expect
    .poll(async () => (await llmRequests()).some((r) => r.rule === "researcher-a"), { timeout: 30_000 })
    .toBe(true);
  const added = await request.post(`/api/runs/${id}/directives`, {
    data: { topic: TOPIC_C, priority: "critical" },
  });
  expect(added.status()).toBe(201);
  const dup = await request.post(`/api/runs/${id}/directives`, { data: { topic: TOPIC_C, priority: "low" } });
  expect(dup.status()).toBe(409);
  const near = await request.post(`/api/runs/${id}/directives`, {
    data: {
      topic: "Noise levels of the outdoor heat pump units in dense residential streets",
      priority: "low",
    },
  });
  expect(near.status()).toBe(409);
  expect((await near.json()).error.message).toMatch(/nearly the same/);
  const bad = await request.post(`/api/runs/${id}/directives`, { data: { topic: "x", priority: "urgent" } });
  expect(bad.status()).toBe(422);

  const run = await waitForStatus(request, id, ["completed", "failed"]);
  expect(run.status).toBe("completed");
  const c = (run.directives as { topic: string; origin: string; status: string; round: number }[]).find(
    (d) => d.topic === TOPIC_C,
  );
  expect(c).toMatchObject({ origin: "user", status: "done" });
  expect(c!.round).toBeGreaterThanOrEqual(1);
  expect((await llmRequests()).filter((r) => r.rule === "researcher-c").length).toBe(5);
  const ended = await request.post(`/api/runs/${id}/directives`, {
    data: { topic: "Too late to add this one" },
  });
  expect(ended.status()).toBe(409);
});

test("a run over its token budget stops gracefully with a readable reason and a partial report", async ({
  request,
}) => {
  await scriptLlm(researchScript({ webUrl: webUrl(), compressionTokens: 400_000 }));
  const { id } = await (
    await request.post("/api/runs", {
      data: {
        question: "Heat pump or gas boiler on a budget?",
        settings: { budget: { maxTokens: 300_000 } },
      },
    })
  ).json();
  const run = await waitForStatus(request, id, ["completed", "failed"]);
  expect(run.status).toBe("failed");
  expect(run.error).toMatch(/budget/i);
  expect(run.reportPartial).toBe(true);
  expect(run.report).toMatch(/partial/i);
  const md = await request.get(`/api/runs/${id}/report.md`);
  expect(md.status()).toBe(200);
  const events = await readEventStream(id);
  expect(events.at(-1)?.[1]).toBe("run.failed");
  const usage = (run.usage as { total: { totalTokens: number } }).total;
  expect(usage.totalTokens).toBeGreaterThanOrEqual(300_000);
  expect(
    (
      await request.post("/api/runs", {
        data: { question: "Bad budget", settings: { budget: { maxTokens: -1 } } },
      })
    ).status(),
  ).toBe(422);
});

test("an ambiguous request waits for one clarifying answer, then researches with it", async ({
  page,
  request,
}) => {
  const rules = researchScript({ webUrl: webUrl() });
  rules.unshift(clarificationRule);
  await scriptLlm(rules);
  const { id } = await (
    await request.post("/api/runs", {
      data: { question: "Is a heat pump worth it?", settings: { clarification: true } },
    })
  ).json();
  const waiting = await waitForStatus(request, id, ["awaiting_clarification"], 30_000);
  expect(waiting.clarificationQuestion).toBe(
    "Which climate should the comparison assume: mild or cold winters?",
  );
  expect((await request.post(`/api/runs/${id}/clarification`, { data: { answer: "" } })).status()).toBe(422);

  await page.goto(`/runs/${id}`);
  const form = page.getByRole("form", { name: "Answer the clarifying question" });
  await expect(form).toContainText("mild or cold winters?");
  await form.getByRole("textbox").fill("Cold winters, down to -20 °C, in Scandinavia.");
  await form.getByRole("button", { name: "Answer and continue" }).click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "completed", {
    timeout: 60_000,
  });

  const events = (await readEventStream(id)).map(([, t]) => t);
  expect(events.indexOf("clarification.requested")).toBeLessThan(events.indexOf("clarification.answered"));
  expect(events.indexOf("clarification.answered")).toBeLessThan(events.indexOf("brief.created"));
  // The brief was written with the answer in hand.
  const briefCall = (await llmRequests()).find((r) => r.rule === "brief")!;
  expect(JSON.stringify(briefCall.body)).toContain("Cold winters, down to -20 °C, in Scandinavia.");
  expect((await request.post(`/api/runs/${id}/clarification`, { data: { answer: "again" } })).status()).toBe(
    409,
  );
});
