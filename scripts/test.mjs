// `npm test`: every test. Unit + integration (vitest; PostgreSQL ones when TEST_DATABASE_URL is set),
// then Playwright e2e against the production build. Prints one closing "N passed, N failed" line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

// Tests never reach the internet: Next.js's anonymous telemetry is off too.
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } })
    .status ?? 1;
const readJson = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, "utf8")) : null);

fs.rmSync(".reports", { recursive: true, force: true });
fs.mkdirSync(".reports", { recursive: true });
if (!process.env.TEST_DATABASE_URL) {
  console.warn(
    "\n*** TEST_DATABASE_URL is unset: PostgreSQL integration tests will NOT run (PGlite ones will). ***\n",
  );
}

const steps = [];
const unit = run("npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile=.reports/unit-results.json",
]);
steps.push(["unit+integration", unit]);

let e2e = run("node", ["scripts/check-chromium.mjs"]);
if (e2e === 0) e2e = run("npx", ["next", "build"]);
if (e2e === 0) e2e = run("npx", ["playwright", "test"]);
steps.push(["e2e", e2e]);

let passed = 0;
let failed = 0;
const u = readJson(".reports/unit-results.json");
if (u) {
  passed += u.numPassedTests;
  failed += u.numFailedTests;
}
const p = readJson(".reports/e2e-results.json");
if (p) {
  passed += p.stats.expected + (p.stats.flaky ?? 0);
  failed += p.stats.unexpected;
}
for (const [name, code] of steps) console.log(`${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`}`);
const bad = steps.some(([, code]) => code !== 0);
if (bad && failed === 0) failed = 1; // a step that failed before running tests still counts as a failure
console.log(`${passed} passed, ${failed} failed`);
process.exit(bad ? 1 : 0);
