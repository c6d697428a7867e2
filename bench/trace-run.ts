/**
 * `node bench/trace-run.ts [--warm]`: one run-overhead run with its timeline printed — every stored
 * event and every model/web call start and end, relative to the POST — to see what the app does in
 * the gaps between calls. With `--warm` an untraced run goes first, so the traced one shows a warm
 * process (code compiled, caches filled). A tool for finding where time goes; `npm run bench` has
 * the figures.
 */
import { benchScript } from "./lib/bench-script.ts";
import { followRun } from "./lib/run-events.ts";
import { startBenchWorld } from "./lib/world.ts";

const world = await startBenchWorld({ modelLatencyMs: 300, webLatencyMs: 100 });

async function oneRun() {
  const script = benchScript({ webUrl: world.web.url, rounds: 3, perRound: 5 });
  world.script(script.rules);
  const { id, postedAt } = await world.startRun("How do heat pumps compare with gas boilers?", {
    clarification: false,
    maxConcurrentResearchers: 5,
    maxFollowUpsPerRound: 5,
    maxDirectivesTotal: 15,
    maxSupervisionRounds: 2,
    heuristicGate: false,
  });
  return { events: await followRun(world, id, { timeoutMs: 300_000 }), postedAt };
}

try {
  if (process.argv.includes("--warm")) await oneRun();
  const { events, postedAt } = await oneRun();
  // The POST's epoch time lets a statement timeline (bench/lib/statement-timeline.mjs) be merged in.
  console.log(`POST at ${postedAt}`);
  const lines: [number, string][] = [];
  for (const e of events) lines.push([e.at - postedAt, `event ${e.type}`]);
  // The fixtures' logs keep the first run's calls under --warm; only the traced run's are shown.
  for (const r of world.llm.requests.filter((x) => x.at >= postedAt)) {
    lines.push([r.at - postedAt, `model start ${r.rule}`]);
    if (r.endedAt) lines.push([r.endedAt - postedAt, `model end   ${r.rule}`]);
  }
  for (const r of world.web.requests.filter((x) => x.at >= postedAt)) {
    lines.push([r.at - postedAt, `web start ${r.path.slice(0, 60)}`]);
    if (r.endedAt) lines.push([r.endedAt - postedAt, `web end   ${r.path.slice(0, 60)}`]);
  }
  lines.sort((a, b) => a[0] - b[0]);
  for (const [t, what] of lines) console.log(`${String(t).padStart(6)}  ${what}`);
} finally {
  await world.close();
}
