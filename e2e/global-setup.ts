/**
 * Starts the scripted OpenAI-compatible server, the local web fixture and the built app on
 * 127.0.0.1, wires the app to them through configuration only, and exposes their URLs to tests.
 * Then signs up the app's first account (its admin) and saves the session as the storage state
 * every test's `page` and `request` start from (playwright.config.ts), so the suite runs signed in.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startScriptedLlm } from "../test/support/llm-server.ts";
import { startWebFixture } from "../test/support/web-fixture.ts";
import { startApp } from "./app-server.ts";
import { signUp, storageStatePath } from "./support/session.ts";

export default async function globalSetup() {
  const llm = await startScriptedLlm();
  const web = await startWebFixture();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-e2e-"));
  const appEnv = {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    MODEL: "openai-compatible:scripted-model",
    OPENAI_COMPATIBLE_BASE_URL: llm.url,
    OPENAI_COMPATIBLE_API_KEY: "test-key",
    SEARCH_PROVIDERS: "searxng",
    SEARXNG_URL: web.url,
    FETCH_ALLOWED_HOSTS: new URL(web.url).host,
    // Deterministic scripts: an unscripted call fails at once instead of being retried into later tests.
    MODEL_MAX_RETRIES: "0",
    WORKER_CONCURRENCY: "2",
    // The suite creates many runs and documents in a row as one user: limits far above what it uses
    // (e2e/limits.spec.ts checks the limits that hold regardless: body size, PDF pages).
    RATE_LIMIT_RUNS_PER_MINUTE: "1000",
    RATE_LIMIT_UPLOADS_PER_MINUTE: "1000",
    RATE_LIMIT_ACTIONS_PER_MINUTE: "1000",
    RUNS_MAX_ACTIVE_PER_USER: "50",
    RUNS_MAX_QUEUED_PER_USER: "50",
  };
  const app = await startApp(appEnv);
  const admin = await signUp(app.url);
  fs.mkdirSync(path.dirname(storageStatePath), { recursive: true });
  fs.writeFileSync(storageStatePath, JSON.stringify({ cookies: admin.cookies, origins: [] }));
  process.env.E2E_COOKIE = admin.cookie;
  process.env.E2E_BASE_URL = app.url;
  process.env.E2E_LLM_URL = llm.url;
  process.env.E2E_WEB_URL = web.url;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_APP_ENV = JSON.stringify(appEnv);

  return async () => {
    await app.stop();
    if (process.env.E2E_SHOW_APP_LOG) console.log(app.output());
    await llm.close();
    await web.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(storageStatePath, { force: true });
  };
}
