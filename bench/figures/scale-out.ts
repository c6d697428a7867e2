/**
 * Scale-out (issue 14, figure 7): with PostgreSQL, the same 20 runs on 2 standalone worker
 * processes vs 1 (the web process runs none) — throughput ratio ≥ 1.7. The figure must show that
 * more worker processes carry more runs, so one worker has to be the bottleneck: with
 * WORKER_CONCURRENCY=5 per worker, one worker takes the 20 runs in about four waves and two workers
 * in about two, while the scripted model (300 ms a call, no concurrency limit) is never the limit.
 * With the default of 50 slots one worker would run all 20 at once and both would measure the same.
 */
import { atLeast, type Benchmark, type Figure } from "../lib/figure.ts";
import { assertAllCompleted, batchTimes, runAll } from "../lib/run-batch.ts";
import { makespan, throughput } from "../lib/scale-stats.ts";
import { SMALL_RUN_SETTINGS, smallRunScript } from "../lib/small-run-script.ts";
import { startBenchWorld } from "../lib/world.ts";

async function measure(postgresUrl: string, workers: number, runs: number, perWorker: number) {
  const world = await startBenchWorld({
    modelLatencyMs: 300,
    webLatencyMs: 50,
    postgresUrl,
    workers,
    env: { WORKER_CONCURRENCY: String(perWorker) },
  });
  try {
    world.script(smallRunScript({ webUrl: world.web.url }));
    await runAll(world, workers, SMALL_RUN_SETTINGS); // warm-up: every worker's first run
    const finished = await runAll(world, runs, SMALL_RUN_SETTINGS);
    assertAllCompleted(finished);
    const span = makespan(
      finished.map((r) => r.postedAt),
      finished.map((r) => r.endedAt),
    );
    return { workers, makespanMs: span, runsPerSecond: throughput(runs, span), ...batchTimes(finished) };
  } finally {
    await world.close();
  }
}

export const benchmark: Benchmark = {
  id: "scale-out",
  async run(ctx): Promise<Figure[]> {
    if (!ctx.postgresUrl) {
      ctx.log("skipped: scale-out needs PostgreSQL (set BENCH_DATABASE_URL)");
      return [];
    }
    const runs = ctx.quick ? 8 : 20;
    const perWorker = ctx.quick ? 2 : 5;
    const one = await measure(ctx.postgresUrl, 1, runs, perWorker);
    ctx.log(`1 worker: ${runs} runs in ${one.makespanMs} ms`);
    const two = await measure(ctx.postgresUrl, 2, runs, perWorker);
    ctx.log(`2 workers: ${runs} runs in ${two.makespanMs} ms`);
    const ratio = two.runsPerSecond / one.runsPerSecond;
    return [
      {
        id: "scale-out-throughput",
        name: `scale-out: runs/s, 2 workers ÷ 1 (${runs} runs, ${perWorker} slots each)`,
        value: ratio,
        unit: "×",
        ...atLeast(ratio, 1.7),
        details: { runs, workerConcurrency: perWorker, one, two },
      },
    ];
  },
};
