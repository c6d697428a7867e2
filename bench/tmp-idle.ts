import { benchScript } from "./lib/bench-script.ts";
import { followRun } from "./lib/run-events.ts";
import { startBenchWorld } from "./lib/world.ts";
const world = await startBenchWorld({ modelLatencyMs: 300, webLatencyMs: 100 });
try {
  const script = benchScript({ webUrl: world.web.url, rounds: 3, perRound: 5 });
  world.script(script.rules);
  const { id, postedAt } = await world.startRun("How do air-source heat pumps compare with gas boilers in efficiency, cost and emissions?", {
    clarification: false, maxConcurrentResearchers: 5, maxFollowUpsPerRound: 5, maxDirectivesTotal: 15, maxSupervisionRounds: 2, heuristicGate: false,
  });
  const events = await followRun(world, id, { timeoutMs: 300_000 });
  const end = events.at(-1)!.at;
  const calls = [...world.llm.requests.map((r) => ({ at: r.at, end: r.endedAt ?? r.at, what: `model ${r.rule}` })),
    ...world.web.requests.map((r) => ({ at: r.at, end: r.endedAt ?? r.at, what: `web ${r.path.slice(0, 20)}` }))].sort((a, b) => a.at - b.at);
  const idle: [number, number, string][] = [];
  let cur = postedAt, lastWhat = "POST";
  for (const c of calls) {
    if (c.at > cur) idle.push([c.at - cur, cur - postedAt, `${lastWhat} → ${c.what}`]);
    if (c.end > cur) { cur = c.end; lastWhat = c.what; }
  }
  if (end > cur) idle.push([end - cur, cur - postedAt, `${lastWhat} → terminal`]);
  console.log(`wall ${end - postedAt} idle ${idle.reduce((s, x) => s + x[0], 0)}`);
  console.log(idle.filter((x) => x[0] > 3).map((x) => `${String(x[0]).padStart(4)} @${x[1]} ${x[2]}`).join("\n"));
} finally {
  await world.close();
}
