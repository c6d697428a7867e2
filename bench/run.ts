/**
 * `npm run bench`: every benchmark in bench/figures/ (or `--only id,id`), one after another, against
 * the built app (built first when there is no build). Prints a table — figure, value, target,
 * pass/fail — and writes the same as JSON to bench/results/ (latest.json and a dated copy). Exits 1
 * when a target is missed. BENCH_DATABASE_URL adds the PostgreSQL figures; `--quick` checks that the
 * benchmarks work with small counts (its figures are not the real ones).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type BenchContext, type Benchmark, type Figure, formatTable } from "./lib/figure.ts";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const ctx: BenchContext = {
  postgresUrl: process.env.BENCH_DATABASE_URL || undefined,
  quick: args.includes("--quick"),
  log: (m) => console.log(`  ${m}`),
};

async function loadBenchmarks(): Promise<Benchmark[]> {
  const dir = path.join(import.meta.dirname, "figures");
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .sort();
  const found: Benchmark[] = [];
  for (const f of files) {
    const mod = (await import(path.join(dir, f))) as { benchmark?: Benchmark };
    if (mod.benchmark && (!only || only.includes(mod.benchmark.id))) found.push(mod.benchmark);
  }
  if (only) {
    const missing = only.filter((id) => !found.some((b) => b.id === id));
    if (missing.length) throw new Error(`no benchmark named ${missing.join(", ")}`);
  }
  return found;
}

function ensureBuild(): void {
  if (fs.existsSync(path.join(root, ".next", "BUILD_ID"))) return;
  console.log("no build found: running next build first");
  const r = spawnSync("npx", ["next", "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error("next build failed");
}

const benchmarks = await loadBenchmarks();
ensureBuild();
if (!ctx.postgresUrl) console.log("(set BENCH_DATABASE_URL to add the PostgreSQL figures)");
const figures: Figure[] = [];
for (const b of benchmarks) {
  console.log(`${b.id} …`);
  const started = Date.now();
  figures.push(...(await b.run(ctx)));
  console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
console.log(`\n${formatTable(figures)}\n`);
const results = path.join(import.meta.dirname, "results");
fs.mkdirSync(results, { recursive: true });
const json = JSON.stringify(
  { at: new Date().toISOString(), quick: ctx.quick, postgres: Boolean(ctx.postgresUrl), figures },
  null,
  2,
);
fs.writeFileSync(path.join(results, "latest.json"), json);
fs.writeFileSync(path.join(results, `${new Date().toISOString().replaceAll(":", "-")}.json`), json);
const missed = figures.filter((f) => f.pass === false);
if (missed.length) {
  console.log(`${missed.length} target(s) missed: ${missed.map((f) => f.id).join(", ")}`);
  process.exit(1);
}
