/**
 * Test-only preload (NODE_OPTIONS="--import <this file>") that measures the event-loop delay INSIDE
 * the process it is loaded into — the app — without touching app code. Writes the percentiles (ms)
 * as JSON to $LOOP_PROBE_FILE every 250 ms and at exit (main thread only). Creating
 * "$LOOP_PROBE_FILE.reset" restarts the histogram, so a benchmark measures only its own phase, not
 * the app's start-up. Garbage-collection pauses of the main thread are summed beside it (count,
 * total, longest): a lag spike that is a GC pause shows there.
 */
import fs from "node:fs";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

// Preloads run in worker threads too (the parse pool, the embedded database's thread): the figure
// is the app's own event loop, the one that serves requests and streams, so only that one writes.
const file = isMainThread ? process.env.LOOP_PROBE_FILE : undefined;
if (file) {
  const resolutionMs = 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let since = Date.now();
  const ms = (ns: number) => ns / 1e6;
  // Kinds as perf_hooks names them: 1 minor (scavenge), 2 major (mark-compact), 4 incremental, 8 weak callbacks.
  const KINDS: Record<number, string> = { 1: "minor", 2: "major", 4: "incremental", 8: "weakcb" };
  const fresh = () => ({
    count: 0,
    totalMs: 0,
    maxMs: 0,
    over20Ms: 0,
    longest: {} as Record<string, number>,
  });
  let gc = fresh();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = KINDS[(e as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? "other";
      gc.count++;
      gc.totalMs += e.duration;
      gc.maxMs = Math.max(gc.maxMs, e.duration);
      gc.longest[kind] = Math.round(Math.max(gc.longest[kind] ?? 0, e.duration));
      if (e.duration > 20) gc.over20Ms++;
    }
  }).observe({ entryTypes: ["gc"] });
  const write = () => {
    const snapshot = {
      at: Date.now(),
      since,
      // Every sample is the timer's full interval (resolution + lag): subtract resolutionMs for the lag.
      resolutionMs,
      count: histogram.count,
      p50: ms(histogram.percentile(50)),
      p90: ms(histogram.percentile(90)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      mean: ms(histogram.mean),
      gc: { ...gc, totalMs: Math.round(gc.totalMs), maxMs: Math.round(gc.maxMs) },
    };
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
    fs.renameSync(`${file}.tmp`, file); // readers never see half a file
  };
  const tick = setInterval(() => {
    if (fs.existsSync(`${file}.reset`)) {
      fs.rmSync(`${file}.reset`, { force: true });
      histogram.reset();
      gc = fresh();
      since = Date.now();
    }
    write();
  }, 250);
  tick.unref();
  process.on("exit", write);
}
