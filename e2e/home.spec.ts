import { expect, test } from "@playwright/test";
import { sessionHeaders, signUp } from "./support/session.ts";

test("home page renders in Chromium with the database connected", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ask a research question");
  await expect(page.getByTestId("database-status")).toHaveText("Database: connected (embedded PGlite)");
  await expect(page).toHaveTitle("Deep Research");
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
