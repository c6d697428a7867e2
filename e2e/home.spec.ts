import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, expectNoSidewaysScroll } from "./support/axe.ts";
import { baseUrl, scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { sessionHeaders, signUp, storageStatePath } from "./support/session.ts";

test("home page renders in Chromium; System status stays hidden while everything works", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ask a research question");
  await expect(page).toHaveTitle("Deep Research");
  await expect(page.getByRole("form", { name: "New research run" })).toBeVisible();
  await expect(page.getByRole("region", { name: "System status" })).toHaveCount(0);
  await expect(page.getByTestId("database-status")).toHaveCount(0);
});

const optionsSummary = (page: Page) => page.locator("summary", { hasText: "Options" });

test("the question form: hint, Shift+Enter, presets, ceilings, the library notice, errors", async ({
  page,
}) => {
  await page.goto("/");
  const question = page.getByLabel("Research question");
  await expect(page.locator("#question-hint")).toHaveText(
    "Press Enter to start, Shift+Enter for a new line.",
  );
  await expect(question).toHaveAttribute("aria-describedby", "question-hint");
  await question.fill("line one");
  await question.press("Shift+Enter");
  await question.pressSequentially("line two");
  await expect(question).toHaveValue("line one\nline two");
  await expect(page).toHaveURL(`${baseUrl()}/`);

  // Presets refill the options; the options never go past this server's ceilings (RUN_MAX_ROUNDS: 5).
  await optionsSummary(page).click();
  const rounds = page.getByLabel("Supervision rounds");
  const researchers = page.getByLabel("Researchers at once");
  const cost = page.getByLabel("Cost limit (US dollars)");
  await expect(rounds).toHaveValue("3");
  await page.getByRole("radio", { name: /Deep/ }).check();
  await expect(rounds).toHaveValue("5");
  await expect(researchers).toHaveValue("8");
  await expect(cost).toHaveValue("15");
  await page.getByRole("radio", { name: /Quick/ }).check();
  await expect(rounds).toHaveValue("1");
  await expect(researchers).toHaveValue("3");
  await expect(cost).toHaveValue("1");
  await rounds.fill("99");
  await expect(rounds).toHaveValue("5");
  await expect(page.getByText("max 5 on this server")).toBeVisible();
  await expect(page.getByText("max 20 on this server").first()).toBeVisible();
  await cost.fill("500");
  await expect(cost).toHaveValue("20");
  // One configured model: named, not offered as a choice.
  await expect(page.getByTestId("model-choice")).toContainText("openai-compatible:scripted-model");
  await expect(page.getByTestId("model-choice").getByRole("combobox")).toHaveCount(0);

  // The server searches SearXNG only: the library is not searched, and the page says so.
  const notice = page.getByTestId("library-notice");
  await expect(notice).toContainText("Your document library is not searched");
  await expect(notice.getByRole("link", { name: "Open your library" })).toHaveAttribute("href", "/library");
  const library = page.getByRole("checkbox", { name: "Your document library" });
  await expect(page.getByRole("checkbox", { name: "The web (SearXNG)" })).toBeChecked();
  await library.check();
  await expect(notice).toHaveCount(0);
  await library.uncheck();
  await expect(notice).toBeVisible();

  // The server's answer appears next to the form: a blank question (after trimming) is refused.
  await question.fill("    ");
  await question.press("Enter");
  const form = page.getByRole("form", { name: "New research run" });
  await expect(form.getByRole("alert")).toContainText("question must be at least 3 characters");
  await expect(page).toHaveURL(`${baseUrl()}/`);
});

test("a run started with Enter, listed with date, duration and sources, found by search, deleted", async ({
  page,
  request,
}) => {
  await waitForIdle(request);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const asked = "Heat pump or gas boiler: which costs less to run in a cold winter?";
  await page.goto("/");
  await page.getByLabel("Research question").fill(asked);
  await page.getByLabel("Research question").press("Enter");
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;
  const run = await waitForStatus(request, id, ["completed", "failed"]);
  expect(run.status).toBe("completed");
  expect(run.settings).toMatchObject({ maxSupervisionRounds: 3, planReview: false });
  const sourceCount = (run.sources as unknown[]).length;
  expect(sourceCount).toBeGreaterThan(0);

  await page.goto("/");
  const row = page.getByTestId("recent-run").filter({ hasText: asked });
  await expect(row.getByTestId("recent-run-status")).toHaveText("Finished");
  await expect(row.getByTestId("run-date")).toHaveText(/just now|seconds? ago|minutes? ago/);
  await expect(row.getByTestId("run-date")).toHaveAttribute("title", / UTC$/);
  await expect(row.getByTestId("run-duration")).toHaveText(/^took \d+ (s|min)$/);
  await expect(row.getByTestId("run-sources")).toHaveText(
    `${sourceCount} source${sourceCount === 1 ? "" : "s"}`,
  );

  // Accessible in both schemes with everything unfolded, and no sideways scroll on a phone.
  await optionsSummary(page).click();
  await row.getByText("Delete", { exact: true }).click();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page, `home (${colorScheme})`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });

  // Search is filtered by the server (?q=).
  const search = page.getByRole("searchbox", { name: "Search your runs" });
  await search.fill("COSTS LESS");
  await search.press("Enter");
  await expect(page).toHaveURL(/\?q=COSTS\+LESS$/);
  const recent = page.getByRole("region", { name: "Recent runs" });
  await expect(recent.getByTestId("recent-run")).toHaveCount(1);
  await expect(recent.getByTestId("recent-run")).toContainText(asked);
  await page.goto("/?q=nothing-like-this-was-asked");
  await expect(recent).toContainText("No runs with “nothing-like-this-was-asked” in the question.");
  await expect(recent.getByTestId("recent-run")).toHaveCount(0);

  // Delete asks first, then removes the run and everything it owned.
  await page.goto("/");
  await row.getByText("Delete", { exact: true }).click();
  await expect(row).toContainText("This cannot be undone.");
  await row.getByRole("button", { name: "Delete permanently" }).click();
  await expect(page.getByTestId("recent-run").filter({ hasText: asked })).toHaveCount(0);
  expect((await request.get(`/api/runs/${id}`)).status()).toBe(404);
});

test("without JavaScript: a run starts with the chosen preset and redirects; delete waits for cancel, then works", async ({
  browser,
  request,
}) => {
  await waitForIdle(request);
  // Nothing scripted: every model call fails, the engine falls back to the question as its brief
  // and a heuristic plan, and waits for the plan review this form asked for.
  await scriptLlm([]);
  const context = await browser.newContext({
    baseURL: baseUrl(),
    storageState: storageStatePath,
    javaScriptEnabled: false,
  });
  try {
    const page = await context.newPage();
    await page.goto("/");
    await page.getByLabel("Research question").fill("Does this form work before hydration?");
    await optionsSummary(page).click();
    await page.getByRole("radio", { name: /Quick/ }).check();
    await page.getByLabel("Let me review the plan first").check();
    await page.getByRole("button", { name: "Start research" }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").at(-1)!;
    const run = (await (await request.get(`/api/runs/${id}`)).json()) as {
      settings: Record<string, unknown>;
    };
    expect(run.settings).toMatchObject({
      maxSupervisionRounds: 1,
      maxConcurrentResearchers: 3,
      budget: { maxCostUsd: 1 },
      planReview: true,
      clarification: false,
    });
    expect(run.settings).not.toHaveProperty("searchProviders");
    const question = "Does this form work before hydration?";
    const row = page.getByTestId("recent-run").filter({ hasText: question });
    await waitForStatus(request, id, ["awaiting_plan_review"]);
    // Not ended: delete is not offered, the person is told to cancel first.
    await page.goto("/");
    await row.getByText("Delete", { exact: true }).click();
    await expect(row).toContainText("This run has not ended yet. Open it and cancel it first");
    await expect(row.getByRole("button", { name: "Delete permanently" })).toHaveCount(0);
    expect((await request.post(`/api/runs/${id}/cancel`)).status()).toBe(202);
    await waitForStatus(request, id, ["cancelled"]);

    // Deleting works before hydration too: the disclosure and the form are plain HTML.
    await page.goto("/");
    await row.getByText("Delete", { exact: true }).click();
    await row.getByRole("button", { name: "Delete permanently" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ask a research question");
    await expect(
      page.getByTestId("recent-run").filter({ hasText: "Does this form work before hydration?" }),
    ).toHaveCount(0);
    expect((await request.get(`/api/runs/${id}`)).status()).toBe(404);
  } finally {
    await context.close();
  }
});

test("health endpoint says the app and its database are up, and nothing more", async ({ request }) => {
  const r = await request.get("/api/health");
  expect(r.status()).toBe(200);
  expect(await r.json()).toEqual({ status: "ok", database: "ok" });
});

test("the embedded database keeps data across a restart", async ({ request }) => {
  const { startApp } = await import("./app-server.ts");
  const created = await request.post("/api/runs", { data: { question: "Does data survive a restart?" } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  // A second server on a copy of the same configuration but its own data directory would not see it;
  // the same directory after the first server stops must.
  const env = JSON.parse(process.env.E2E_APP_ENV ?? "{}");
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "dr-e2e-restart-"));
  try {
    const first = await startApp({ ...env, DATA_DIR: copy });
    const session = await signUp(first.url);
    const made = await fetch(`${first.url}/api/runs`, {
      method: "POST",
      headers: sessionHeaders(session, { "content-type": "application/json" }),
      body: JSON.stringify({ question: "Still here after restart?" }),
    });
    expect(made.status).toBe(201);
    const mine = (await made.json()).id;
    await first.stop();
    const second = await startApp({ ...env, DATA_DIR: copy });
    // The account, its session (the secret is kept in DATA_DIR) and its run all survive the restart.
    const again = { ...session, url: second.url };
    try {
      const list = await (await fetch(`${second.url}/api/runs`, { headers: sessionHeaders(again) })).json();
      expect(list.runs.map((r: { id: string }) => r.id)).toEqual([mine]);
      const run = await (
        await fetch(`${second.url}/api/runs/${mine}`, { headers: sessionHeaders(again) })
      ).json();
      expect(run.question).toBe("Still here after restart?");
      expect(list.runs.map((r: { id: string }) => r.id)).not.toContain(id);
    } finally {
      await second.stop();
    }
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

test("without a model the app still starts, says exactly what to set, and refuses runs with 409", async ({
  page,
}) => {
  const { startApp } = await import("./app-server.ts");
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  const env = JSON.parse(process.env.E2E_APP_ENV ?? "{}");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-e2e-nomodel-"));
  const app = await startApp({ ...env, DATA_DIR: dir, MODEL: "" });
  try {
    // The public health answer stays up-or-not; the setup page says what is missing.
    expect(await (await fetch(`${app.url}/api/health`)).json()).toEqual({ status: "ok", database: "ok" });
    const session = await signUp(app.url);
    // Same host as the shared app, so this replaces its cookie in this test's browser context.
    await page.context().addCookies(session.cookies);
    await page.goto(app.url);
    await expect(page).toHaveURL(`${app.url}/`);
    const status = page.getByTestId("model-status");
    await expect(status).toContainText(
      "No model configured for: supervisor, researcher, compression, synthesis, summarization.",
    );
    await expect(status).toContainText("MODEL=openai-compatible:llama3.1");
    await expect(status).toContainText("OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1");
    await expect(page.getByRole("button", { name: "Start research" })).toBeDisabled();
    const r = await fetch(`${app.url}/api/runs`, {
      method: "POST",
      headers: sessionHeaders(session, { "content-type": "application/json" }),
      body: JSON.stringify({ question: "Will this run?" }),
    });
    expect(r.status).toBe(409);
    const body = await r.json();
    expect(body.error.code).toBe("not_configured");
    expect(body.error.message).toContain("MODEL");
    expect(
      (await (await fetch(`${app.url}/api/runs`, { headers: sessionHeaders(session) })).json()).runs,
    ).toEqual([]);
  } finally {
    await app.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
