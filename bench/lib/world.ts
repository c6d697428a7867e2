/**
 * What a benchmark runs against: the built app (scripts/serve.mjs, as `npm start`) wired to the
 * scripted model server and the local web fixture, each answering after a fixed latency and
 * logging when every call started and ended, so a figure can compare the run's wall time with the
 * time spent waiting on them. Embedded PGlite by default; PostgreSQL (a fresh database) when
 * `postgresUrl` is given, optionally with standalone workers. Limits are raised for the benchmark.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AppServer, startApp, startWorker } from "../../e2e/app-server.ts";
import { signUp } from "../../e2e/support/session.ts";
import { createFreshPostgresDatabase } from "../../test/databases.ts";
import { type ScriptedLlm, type ScriptRule, startScriptedLlm } from "../../test/support/llm-server.ts";
import { startWebFixture, type WebFixture } from "../../test/support/web-fixture.ts";

export interface BenchWorldOptions {
  /** Every model call answers after this long. */
  modelLatencyMs: number;
  /** Every search and page answers after this long. */
  webLatencyMs: number;
  /** PostgreSQL server URL; a fresh database is created on it. Unset: embedded PGlite. */
  postgresUrl?: string;
  /** With PostgreSQL: standalone `npm run worker` processes (the web process then runs none). */
  workers?: number;
  /** More environment for the app (and workers). */
  env?: Record<string, string>;
}

export interface BenchWorld {
  url: string;
  /** Cookie header of the app's admin. */
  cookie: string;
  llm: ScriptedLlm;
  web: WebFixture;
  app: AppServer;
  workers: AppServer[];
  /** POST /api/runs as the admin; returns the id and when the request was sent. */
  startRun(question: string, settings?: Record<string, unknown>): Promise<{ id: string; postedAt: number }>;
  /** GET as the admin, parsed JSON. */
  get<T = unknown>(path: string): Promise<T>;
  script(rules: ScriptRule[]): void;
  close(): Promise<void>;
}

/** Limits far above what a benchmark uses, so it measures the app, not its throttles. */
const RAISED_LIMITS = {
  RATE_LIMIT_RUNS_PER_MINUTE: "0",
  RATE_LIMIT_UPLOADS_PER_MINUTE: "0",
  RATE_LIMIT_ACTIONS_PER_MINUTE: "0",
  RUNS_MAX_ACTIVE_PER_USER: "200",
  RUNS_MAX_QUEUED_PER_USER: "200",
  // Slots a benchmark needs, not more: each slot is a pg-boss poller of its own (a figure that runs
  // many runs at once sets its own).
  WORKER_CONCURRENCY: "4",
  MODEL_MAX_CONCURRENCY: "200",
  MODEL_MAX_RETRIES: "0",
};

export async function startBenchWorld(opts: BenchWorldOptions): Promise<BenchWorld> {
  const llm = await startScriptedLlm({ latencyMs: opts.modelLatencyMs });
  const web = await startWebFixture({ latencyMs: opts.webLatencyMs });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-bench-"));
  const database = opts.postgresUrl ? await createFreshPostgresDatabase(opts.postgresUrl) : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? "",
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    MODEL: "openai-compatible:scripted-model",
    OPENAI_COMPATIBLE_BASE_URL: llm.url,
    OPENAI_COMPATIBLE_API_KEY: "bench-key",
    SEARCH_PROVIDERS: "searxng",
    SEARXNG_URL: web.url,
    FETCH_ALLOWED_HOSTS: new URL(web.url).host,
    ...RAISED_LIMITS,
    ...(opts.workers ? { IN_PROCESS_WORKER: "false" } : {}),
    ...opts.env,
  };
  const app = await startApp(env);
  const workers: AppServer[] = [];
  for (let i = 0; i < (opts.workers ?? 0); i++) workers.push(await startWorker(env));
  const { cookie } = await signUp(app.url);
  const headers = { cookie, origin: app.url };

  return {
    url: app.url,
    cookie,
    llm,
    web,
    app,
    workers,
    async startRun(question, settings = {}) {
      const postedAt = Date.now();
      const r = await fetch(`${app.url}/api/runs`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ question, settings }),
      });
      if (r.status !== 201) throw new Error(`POST /api/runs: ${r.status} ${await r.text()}`);
      const { id } = (await r.json()) as { id: string };
      return { id, postedAt };
    },
    async get<T>(p: string) {
      const r = await fetch(`${app.url}${p}`, { headers });
      if (!r.ok) throw new Error(`GET ${p}: ${r.status} ${await r.text()}`);
      return (await r.json()) as T;
    },
    script(rules) {
      llm.setScript(rules);
    },
    async close() {
      await Promise.allSettled(workers.map((w) => w.stop()));
      await app.stop();
      await Promise.allSettled([llm.close(), web.close()]);
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
