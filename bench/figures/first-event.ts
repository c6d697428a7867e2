/**
 * Figure 3 of issue 14: time from POST /api/runs to the first event the worker writes
 * (`run.started`; `run.created` is written by the POST itself). Measured as the run_events row's
 * `at` (server clock) minus the moment the client sent the POST (client clock; same machine), so
 * neither the stream's connection set-up nor its delivery is counted; the SSE delivery time is
 * printed beside it. Runs go one after another and each is cancelled once it has started (and
 * followed to its terminal event), so the queue never holds more than one run.
 * Embedded (in-process worker) has the target; with PostgreSQL a standalone worker is measured too.
 */
import { benchScript } from "../lib/bench-script.ts";
import { atMost, type BenchContext, type Benchmark, type Figure, median, percentile } from "../lib/figure.ts";
import { followRun } from "../lib/run-events.ts";
import { type BenchWorld, startBenchWorld } from "../lib/world.ts";

const SETTINGS = { clarification: false, maxConcurrentResearchers: 1, maxSupervisionRounds: 0 };

async function cancel(world: BenchWorld, id: string): Promise<void> {
  const r = await fetch(`${world.url}/api/runs/${id}/cancel`, {
    method: "POST",
    headers: { cookie: world.cookie, origin: world.url },
  });
  // 409: the run already ended (nothing to cancel) — fine, the stream still ends.
  if (!r.ok && r.status !== 409) throw new Error(`cancel ${id}: ${r.status} ${await r.text()}`);
}

async function oneRun(world: BenchWorld, i: number): Promise<{ written: number; delivered: number }> {
  const { id, postedAt } = await world.startRun(
    `Bench question ${i}: how efficient are heat pumps?`,
    SETTINGS,
  );
  let cancelling: Promise<void> | undefined;
  const events = await followRun(world, id, {
    timeoutMs: 60_000,
    onEvent: (e) => {
      if (e.type === "run.started") cancelling = cancel(world, id);
    },
  });
  await cancelling;
  const started = events.find((e) => e.type === "run.started");
  if (!started) throw new Error(`first-event: run ${id} ended (${events.at(-1)?.type}) without run.started`);
  return { written: started.at - postedAt, delivered: started.receivedAt - postedAt };
}

async function measure(ctx: BenchContext, name: string, world: BenchWorld, runs: number): Promise<Figure[]> {
  world.script(benchScript({ webUrl: world.web.url, rounds: 1, perRound: 1 }).rules);
  await oneRun(world, 0); // warm-up: first requests compile routes and open connections
  const written: number[] = [];
  const delivered: number[] = [];
  for (let i = 1; i <= runs; i++) {
    const r = await oneRun(world, i);
    written.push(r.written);
    delivered.push(r.delivered);
  }
  const details = {
    runs,
    measuredAs: "run.started row `at` (server) − POST send time (client)",
    p95Ms: percentile(written, 95),
    maxMs: Math.max(...written),
    sseDeliveryMedianMs: median(delivered),
    sseDeliveryP95Ms: percentile(delivered, 95),
    samplesMs: written,
  };
  ctx.log(
    `${name}: median ${median(written)} ms, p95 ${details.p95Ms} ms (SSE delivery median ${details.sseDeliveryMedianMs} ms)`,
  );
  ctx.log(`${name}: samples ${written.join(" ")}`);
  const value = median(written);
  const p95 = percentile(written, 95);
  return [
    {
      id: `first-event-${name}`,
      name: `POST → run.started, ${name}, median`,
      value,
      unit: "ms",
      ...atMost(value, 250),
      details,
    },
    {
      id: `first-event-p95-${name}`,
      name: `POST → run.started, ${name}, p95`,
      value: p95,
      unit: "ms",
      target: "",
      pass: null,
      details,
    },
  ];
}

async function inWorld(ctx: BenchContext, name: string, opts: { postgresUrl?: string; workers?: number }) {
  const world = await startBenchWorld({ modelLatencyMs: 20, webLatencyMs: 10, ...opts });
  try {
    return await measure(ctx, name, world, ctx.quick ? 10 : 50);
  } finally {
    await world.close();
  }
}

export const benchmark: Benchmark = {
  id: "first-event",
  async run(ctx) {
    const figures = await inWorld(ctx, "embedded", {});
    if (ctx.postgresUrl) {
      figures.push(...(await inWorld(ctx, "postgres-worker", { postgresUrl: ctx.postgresUrl, workers: 1 })));
    }
    return figures;
  },
};
