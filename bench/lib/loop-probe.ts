/**
 * Test-only preload (NODE_OPTIONS="--import <this file>") that measures the event-loop delay INSIDE
 * the process it is loaded into — the app — without touching app code. Writes the percentiles (ms)
 * as JSON to $LOOP_PROBE_FILE every 250 ms and at exit (main thread only). Creating
 * "$LOOP_PROBE_FILE.reset" restarts the histogram, so a benchmark measures only its own phase, not
 * the app's start-up.
 */
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
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
    };
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
    fs.renameSync(`${file}.tmp`, file); // readers never see half a file
  };
  const tick = setInterval(() => {
    if (fs.existsSync(`${file}.reset`)) {
      fs.rmSync(`${file}.reset`, { force: true });
      histogram.reset();
      since = Date.now();
    }
    write();
  }, 250);
  tick.unref();
  process.on("exit", write);
}
