/**
 * Fan-out (issue 14, figure 4): many SSE viewers on one run. Every viewer must get every event
 * (gapless seqs, the same set for all); the figure is the p95 delay from an event's commit (the
 * row's `at`, carried in the SSE data) to its arrival at a viewer, with 200 viewers, and its ratio to
 * the same with 1 viewer, both measured here in one world: after a warm-up run, three runs of each,
 * alternated so that a drift of the machine touches both, and each side's figure is the median of
 * its three p95s (one run's p95 rests on its few slowest events, so a single run swings). The
 * brief's reply is held back so the viewers are all subscribed before the run produces its events;
 * only events committed after the last viewer connected count towards the delays (earlier ones
 * arrive as a replay).
 */

import type { BenchContext, Benchmark } from "../lib/figure.ts";
import { atMost, type Figure, median, percentile } from "../lib/figure.ts";
import {
  deliveryDelays,
  type EventSpread,
  gaplessProblem,
  mismatchedViewer,
  slowestEvents,
} from "../lib/scale-stats.ts";
import { SMALL_RUN_SETTINGS, smallRunScript } from "../lib/small-run-script.ts";
import { openViewer } from "../lib/sse-viewer.ts";
import { type BenchWorld, startBenchWorld } from "../lib/world.ts";

/** Runs of each size after a warm-up run; each size's figure is the median p95 of its runs. */
const RUNS_EACH = 3;

interface FanoutSample {
  viewers: number;
  eventsPerViewer: number;
  measured: number;
  connectMs: number;
  p50: number;
  p95: number;
  max: number;
  /** The events whose last viewer waited longest (a p95 rests on a few events). */
  slowest: EventSpread[];
}

async function measure(world: BenchWorld, viewers: number): Promise<FanoutSample> {
  const { id, postedAt } = await world.startRun(`Fan-out to ${viewers} viewer(s)`, SMALL_RUN_SETTINGS);
  const opened = Array.from({ length: viewers }, () => openViewer(world.url, id, world.cookie));
  const allConnectedAt = Math.max(...(await Promise.all(opened.map((v) => v.connected))));
  const results = await Promise.all(opened.map((v) => v.done));
  const seqs = results.map((r, i) => {
    if (!r.closed) throw new Error(`viewer ${i} of ${viewers}: the stream did not end`);
    const s = r.deliveries.map((d) => d.seq);
    const gap = gaplessProblem(s);
    if (gap) throw new Error(`viewer ${i} of ${viewers}: ${gap}`);
    return s;
  });
  const mismatch = mismatchedViewer(seqs);
  if (mismatch) throw new Error(`viewers disagree: ${mismatch}`);
  const last = results[0].deliveries.at(-1);
  if (last?.type !== "run.completed") throw new Error(`run ended with ${last?.type}`);
  const delays = results.flatMap((r) => deliveryDelays(r.deliveries, allConnectedAt));
  if (!delays.length) throw new Error("no event was committed after the viewers connected");
  return {
    viewers,
    eventsPerViewer: seqs[0].length,
    measured: delays.length,
    connectMs: allConnectedAt - postedAt,
    p50: median(delays),
    p95: percentile(delays, 95),
    max: Math.max(...delays),
    slowest: slowestEvents(
      results.map((r) => r.deliveries),
      allConnectedAt,
    ),
  };
}

function medianByP95(samples: FanoutSample[]): FanoutSample {
  return [...samples].sort((a, b) => a.p95 - b.p95)[Math.floor(samples.length / 2)];
}

export const benchmark: Benchmark = {
  id: "fanout",
  async run(ctx): Promise<Figure[]> {
    const figures = await measureIn(ctx, "embedded");
    // With PostgreSQL too: the streams' queries then go through a pool instead of PGlite's one
    // connection, which tells the two costs of a viewer (database reads, event-loop work) apart.
    if (ctx.postgresUrl) figures.push(...(await measureIn(ctx, "postgres", ctx.postgresUrl)));
    return figures;
  },
};

async function measureIn(ctx: BenchContext, db: string, postgresUrl?: string): Promise<Figure[]> {
  const viewers = ctx.quick ? 20 : 200;
  // One run at a time needs no more than the default worker slots; the world's raised 50 would
  // add 50 pg-boss pollers (each queries the database every second) to what is measured.
  const world = await startBenchWorld({
    modelLatencyMs: 300,
    webLatencyMs: 50,
    postgresUrl,
    env: { WORKER_CONCURRENCY: "2" },
  });
  try {
    // Long enough for every viewer to connect before the first model reply (2 cores, 200 fetches).
    world.script(smallRunScript({ webUrl: world.web.url, briefDelayMs: ctx.quick ? 1000 : 3000 }));
    // The first run after start pays V8's first compile (as in run-overhead): it warms up, uncounted.
    await measure(world, 1);
    const ones: FanoutSample[] = [];
    const manys: FanoutSample[] = [];
    for (let i = 0; i < RUNS_EACH; i++) {
      ones.push(await measure(world, 1));
      manys.push(await measure(world, viewers));
    }
    const one = medianByP95(ones);
    const many = medianByP95(manys);
    ctx.log(
      `${db}, 1 viewer: p95 ${one.p95} ms (median of ${ones.map((o) => o.p95).join(", ")}) over ${one.measured} deliveries`,
    );
    ctx.log(
      `${db}, ${viewers} viewers: p95 ${many.p95} ms (median of ${manys.map((o) => o.p95).join(", ")}) over ${many.measured} deliveries (${many.eventsPerViewer} events each, all connected ${many.connectMs} ms after the POST)`,
    );
    const spread = (e: EventSpread) => `${e.seq} ${e.type} ${e.first}→${e.last} ms`;
    ctx.log(
      `${db}, ${viewers} viewers, slowest events (first→last viewer): ${many.slowest.map(spread).join("; ")}`,
    );
    // A 1-viewer p95 under 1 ms would make the ratio meaningless: it is floored at 1 ms.
    const ratio = many.p95 / Math.max(one.p95, 1);
    const suffix = db === "embedded" ? "" : `-${db}`;
    return [
      {
        id: `fanout-p95${suffix}`,
        name: `fan-out, ${db}: p95 commit → delivery, ${viewers} viewers`,
        value: many.p95,
        unit: "ms",
        ...atMost(many.p95, 100),
        details: { many, one, p95sMany: manys.map((m) => m.p95), p95sOne: ones.map((o) => o.p95) },
      },
      {
        id: `fanout-ratio${suffix}`,
        name: `fan-out, ${db}: p95 ${viewers} viewers ÷ 1 viewer`,
        value: ratio,
        unit: "×",
        ...atMost(ratio, 3),
        details: { p95Many: many.p95, p95One: one.p95 },
      },
    ];
  } finally {
    await world.close();
  }
}
