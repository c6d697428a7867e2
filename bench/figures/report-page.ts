/**
 * Figure 6, the report page: two stored, finished runs — a 20 000-word report citing 150 sources
 * and a 1 000-word one citing 10 — seeded straight into the database of the built app (embedded
 * PGlite: the app is started once to sign up its admin, stopped, the runs are seeded on its data
 * directory, and it is started again). In Chromium, signed in: navigation start → the first
 * citation's hover card shows its stored passage, timed inside the page (performance.now(), i.e.
 * since timeOrigin). Median of 5 warm loads each (3 with --quick) after one unmeasured load.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium } from "@playwright/test";
import { migrateDatabase, openDatabase } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { startApp } from "../../e2e/app-server.ts";
import { chromiumArgs, chromiumPath } from "../../e2e/support/chromium.ts";
import { PAGE_WEIGHT_TARGETS, pageWeight } from "../../e2e/support/page-weight.ts";
import { type BrowserCookie, signUp } from "../../e2e/support/session.ts";
import { cpuProfiler, type ProfileSummary } from "../lib/cpu-profile.ts";
import { atMost, type BenchContext, type Benchmark, type Figure, median } from "../lib/figure.ts";
import { type LoadTiming, loadAndHover, prepareContext, transferred } from "../lib/page-timing.ts";
import { generateReport } from "../lib/report-seed.ts";
import { seedFinishedRun } from "../lib/seed-run.ts";

const APP_ENV = {
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
  DATABASE_URL: "",
  // A finished run calls no model; a dead local address keeps the app from reaching out.
  MODEL: "openai-compatible:scripted-model",
  OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1",
  OPENAI_COMPATIBLE_API_KEY: "bench-key",
};

/** Signs up the admin on a fresh data directory, then seeds both runs for it with the app stopped. */
async function seededApp(dataDir: string) {
  const env = { ...APP_ENV, DATA_DIR: dataDir };
  const first = await startApp(env);
  const session = await signUp(first.url);
  await first.stop();
  const handle = await openDatabase({ dataDir });
  const ids: { big: string; small: string } = { big: "", small: "" };
  let bigReport: ReturnType<typeof generateReport>;
  try {
    await migrateDatabase(handle);
    const [admin] = await handle.db.select({ id: users.id }).from(users);
    bigReport = generateReport({ words: 20_000, sources: 150, seed: 1 });
    ids.big = await seedFinishedRun(handle.db, admin.id, bigReport);
    ids.small = await seedFinishedRun(
      handle.db,
      admin.id,
      generateReport({ words: 1_000, sources: 10, seed: 2 }),
    );
  } finally {
    await handle.close();
  }
  const app = await startApp(env);
  return { app, cookies: session.cookies, ids, bigReport };
}

async function signedInContext(browser: Browser, url: string, cookies: BrowserCookie[]) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // The session cookie was set for the first start's port; cookies are per host, not per port.
  await context.addCookies(cookies.map((c) => ({ ...c, domain: new URL(url).hostname })));
  await prepareContext(context);
  return context;
}

/** One unmeasured load (cold cache: what it downloads is printed), then `n` measured ones. */
async function measurePage(context: BrowserContext, url: string, n: number) {
  const cold = await loadAndHover(context, url);
  const bytes = await transferred(cold.page);
  const weight = await pageWeight(cold.page);
  await cold.page.close();
  const loads: LoadTiming[] = [];
  for (let i = 0; i < n; i++) {
    const { page, ...timing } = await loadAndHover(context, url);
    await page.close();
    loads.push(timing);
  }
  const byPassage = [...loads].sort((a, b) => a.passageAt - b.passageAt);
  return {
    medianMs: median(loads.map((l) => l.passageAt)),
    medianLoad: byPassage[Math.floor((n - 1) / 2)],
    loads,
    bytes,
    weight,
  };
}

const round = (n: number) => Math.round(n);
const milestones = (l: LoadTiming) => ({
  responseStart: round(l.responseStart),
  responseEnd: round(l.responseEnd),
  domContentLoaded: round(l.domContentLoaded),
  hydrated: round(l.hydrated),
  hoverAt: round(l.hoverAt),
  cardAt: round(l.cardAt),
  passageAt: round(l.passageAt),
  cardCloses: l.cardCloses,
  hovers: l.hovers,
  longTasks: { ...l.longTasks, totalMs: round(l.longTasks.totalMs) },
  wallMs: l.wallMs,
});

export const benchmark: Benchmark = { id: "report-page", run: measureReportPage };

async function measureReportPage(ctx: BenchContext): Promise<Figure[]> {
  const n = ctx.quick ? 3 : 5;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-bench-report-"));
  const { app, cookies, ids, bigReport } = await seededApp(dataDir);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
  });
  try {
    const context = await signedInContext(browser, app.url, cookies);
    const big = await measurePage(context, `${app.url}/runs/${ids.big}`, n);
    const small = await measurePage(context, `${app.url}/runs/${ids.small}`, n);
    const ratio = big.medianMs / small.medianMs;
    ctx.log(`20 000 words: ${JSON.stringify(milestones(big.medianLoad))}`);
    ctx.log(`1 000 words: ${JSON.stringify(milestones(small.medianLoad))}`);
    let profile: ProfileSummary | undefined;
    if (big.medianMs > 1000 || ratio > 2) profile = await profileBigPage(ctx, context, app.url, ids.big);
    await context.close();
    const inputs = {
      loads: n,
      words: bigReport.words,
      sources: 150,
      citations: bigReport.citations.length,
      timing: "performance.now() in the page: ms since navigation start",
    };
    return [
      {
        id: "report-page-20k",
        name: "report page, 20 000 words / 150 sources: navigation → citation card with passage",
        value: big.medianMs,
        unit: "ms",
        ...atMost(big.medianMs, 1000),
        details: {
          ...inputs,
          median: milestones(big.medianLoad),
          all: big.loads.map((l) => round(l.passageAt)),
          profile,
        },
      },
      {
        id: "report-page-ratio",
        name: "report page, 20 000 words ÷ 1 000 words",
        value: ratio,
        unit: "×",
        ...atMost(ratio, 2),
        details: {
          bigMs: big.medianMs,
          smallMs: small.medianMs,
          small: milestones(small.medianLoad),
          all: small.loads.map((l) => round(l.passageAt)),
        },
      },
      {
        id: "report-page-html-ratio",
        name: "report page, 20 000 words: HTML document (decoded) ÷ the report's Markdown",
        value: big.weight.htmlDecodedBytes / Buffer.byteLength(bigReport.markdown),
        unit: "×",
        ...atMost(
          big.weight.htmlDecodedBytes / Buffer.byteLength(bigReport.markdown),
          PAGE_WEIGHT_TARGETS.htmlToMarkdown,
        ),
        details: {
          htmlDecodedBytes: big.weight.htmlDecodedBytes,
          htmlTransferBytes: big.bytes.htmlTransferBytes,
          markdownBytes: Buffer.byteLength(bigReport.markdown),
          smallPageBytes: small.weight.htmlDecodedBytes,
        },
      },
      {
        id: "report-page-js",
        name: "report page, JavaScript loaded by the load event (decoded)",
        value: big.weight.scriptDecodedBytesByLoad / 1024,
        unit: "KiB",
        ...atMost(big.weight.scriptDecodedBytesByLoad / 1024, PAGE_WEIGHT_TARGETS.scriptKiB),
        details: { ...big.weight, afterHover: big.bytes, smallPage: small.weight },
      },
    ];
  } finally {
    await browser.close();
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A missed target: one more load of the big page under the CPU profiler, logged top first. */
async function profileBigPage(ctx: BenchContext, context: BrowserContext, origin: string, id: string) {
  const out: { summary?: ProfileSummary } = {};
  const { page, ...timing } = await loadAndHover(context, `${origin}/runs/${id}`, cpuProfiler(origin, out));
  await page.close();
  ctx.log(`profiled load: ${JSON.stringify(milestones(timing))}`);
  for (const f of out.summary?.byFunction ?? []) ctx.log(`  ${String(f.selfMs).padStart(5)} ms  ${f.name}`);
  for (const s of out.summary?.byScript ?? []) ctx.log(`  ${String(s.selfMs).padStart(5)} ms  ${s.script}`);
  return out.summary;
}
