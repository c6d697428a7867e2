/**
 * `node bench/statement-probe.ts [--runs=N]`: the run-overhead run (same script, same latencies)
 * executed in this process the way the worker executes it (executeRun on embedded PGlite, no web
 * server and no queue), with every SQL statement counted. Prints the statements of the whole run
 * by kind, the statements that started inside each gap of the critical path (the app's own work
 * between two dependent calls), and the in-process wall ÷ busy and wall ÷ chain. A tool for
 * judging a change by statement counts and gaps, which noise on a shared machine leaves alone;
 * `npm run bench` has the figures (those include the POST and the queue).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase } from "../db/client.ts";
import { createRun } from "../db/queries/runs.ts";
import { createRunBus } from "../lib/jobs/bus.ts";
import { executeRun } from "../lib/jobs/execute-run.ts";
import { startScriptedLlm } from "../test/support/llm-server.ts";
import { startWebFixture } from "../test/support/web-fixture.ts";
import { classifyCalls } from "./figures/run-overhead.ts";
import { benchScript } from "./lib/bench-script.ts";
import { criticalPath, pathGaps, unionLength } from "./lib/call-timeline.ts";
import { countStatements, statementKind } from "./lib/statement-log.ts";

const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 1);
const llm = await startScriptedLlm({ latencyMs: 300 });
const web = await startWebFixture({ latencyMs: 100 });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-probe-"));
const handle = await openDatabase({ dataDir });
await migrateDatabase(handle);
if (handle.kind !== "pglite") throw new Error("the probe counts PGlite statements");
const log = countStatements(handle.client);
const bus = await createRunBus(handle);
const env = {
  MODEL: "openai-compatible:scripted-model",
  OPENAI_COMPATIBLE_BASE_URL: llm.url,
  OPENAI_COMPATIBLE_API_KEY: "bench-key",
  SEARCH_PROVIDERS: "searxng",
  SEARXNG_URL: web.url,
  FETCH_ALLOWED_HOSTS: new URL(web.url).host,
  MODEL_MAX_CONCURRENCY: "200",
  MODEL_MAX_RETRIES: "0",
};

try {
  for (let i = 0; i < runs; i++) {
    const from = { llm: llm.requests.length, web: web.requests.length };
    log.statements.length = 0;
    const script = benchScript({ webUrl: web.url, rounds: 3, perRound: 5 });
    llm.setScript(script.rules);
    const run = await createRun(handle.db, {
      ownerId: "probe",
      question: "How do air-source heat pumps compare with gas boilers in efficiency, cost and emissions?",
      settings: {
        clarification: false,
        maxConcurrentResearchers: 5,
        maxFollowUpsPerRound: 5,
        maxDirectivesTotal: 15,
        maxSupervisionRounds: 2,
        heuristicGate: false,
      },
    });
    const start = Date.now();
    const outcome = await executeRun({
      handle,
      bus,
      runId: run.id,
      workerSignal: new AbortController().signal,
      env,
    });
    const end = Date.now();
    if (outcome.status !== "completed") throw new Error(`the run ended ${JSON.stringify(outcome)}`);
    report(script, { llm: llm.requests.slice(from.llm), web: web.requests.slice(from.web) }, start, end);
  }
} finally {
  await bus.close();
  await handle.close();
  await Promise.allSettled([llm.close(), web.close()]);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function report(
  script: ReturnType<typeof benchScript>,
  requests: { llm: typeof llm.requests; web: typeof web.requests },
  start: number,
  end: number,
) {
  const world = { llm: { ...llm, requests: requests.llm }, web: { ...web, requests: requests.web } };
  const calls = classifyCalls(world, script.laneOfWebPath, script.researchers);
  const busy = unionLength(calls, start, end);
  const chain = criticalPath(calls);
  const gaps = pathGaps(chain.path, start, end);
  const wall = end - start;
  console.log(`wall ${wall} ms, busy ${busy} ms, chain ${chain.chainMs} ms`);
  console.log(`wall ÷ busy ${(wall / busy).toFixed(3)}, wall ÷ chain ${(wall / chain.chainMs).toFixed(3)}`);
  const byKind = new Map<string, number>();
  for (const s of log.statements)
    byKind.set(statementKind(s.sql), (byKind.get(statementKind(s.sql)) ?? 0) + 1);
  console.log(`${log.statements.length} statements in the run:`);
  for (const [k, n] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(6)}  ${k}`);
  let inGaps = 0;
  console.log("gaps on the critical path (ms, statements started in the gap):");
  for (const g of gaps) {
    const from = start + g.offset;
    const inside = log.statements.filter((s) => s.at >= from && s.at < from + g.ms);
    inGaps += inside.length;
    const kinds = [...new Set(inside.map((s) => statementKind(s.sql)))].join("; ");
    console.log(
      `${String(g.ms).padStart(6)} ${String(inside.length).padStart(4)}  ${g.after} → ${g.before}  [${kinds}]`,
    );
  }
  const total = gaps.reduce((n, g) => n + g.ms, 0);
  console.log(`gaps: ${total} ms in ${gaps.length}, ${inGaps} statements in them`);
}
