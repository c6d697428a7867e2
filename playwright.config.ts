import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "./e2e/support/chromium.ts";
import { storageStatePath } from "./e2e/support/session.ts";

// E2E runs the built app (scripts/serve.mjs, as `npm start` does) against the scripted LLM and the local web fixture, all on
// 127.0.0.1, started by e2e/global-setup.ts. One worker: tests share one app and script its model.
// Every page and request starts signed in as that app's admin (the storage state global-setup saves).
export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: ".reports/e2e-results.json" }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    storageState: storageStatePath,
    trace: "retain-on-failure",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
});
